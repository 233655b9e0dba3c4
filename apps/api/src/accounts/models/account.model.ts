import { Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';
import { Player } from '../../players/models/player.model.js';

@Model({ description: "What the caller keeps to sign in: a password, an email, passkeys (never the password itself)" })
export class Account {
  @Prop(() => Player)
  player!: Player;

  @Prop(() => String, { nullable: true, description: 'The email, verified or not; null when none is set' })
  email!: string | null;

  @Prop({ description: 'The email was confirmed through the link mailed to it: it signs in and resets the password' })
  emailVerified!: boolean;

  @Prop({ description: 'A password is set (signIn with it works)' })
  hasPassword!: boolean;

  @Prop(() => Int, { description: 'Passkeys registered to the account' })
  passkeyCount!: number;

  @Prop({ description: 'This server sends mail (SMTP_URL is set): setEmail and requestPasswordReset work' })
  mailEnabled!: boolean;
}
