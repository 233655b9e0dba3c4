import { ID } from '@nestjs/graphql';
import type { TokenScope } from '../../auth/scopes.js';
import { Model, Prop } from '../../common/model-field.js';
import { registerEnum } from '../../common/model-field.js';
import { Player } from '../../players/models/player.model.js';
import { TokenScopeEnum } from '../../players/models/token-scope.enum.js';

export const SIGN_IN_METHODS = ['password', 'passkey', 'oauth'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
export const SignInMethodEnum = { password: 'password', passkey: 'passkey', oauth: 'oauth' } as const satisfies Record<SignInMethod, SignInMethod>;

registerEnum(SignInMethodEnum, {
  name: 'SignInMethod',
  description: 'How a session began: a password, a passkey, or an app the player authorized (OAuth)',
});

@Model({ description: "A signed-in session of the caller (a browser, a device) or an app's grant; never its tokens" })
export class Session {
  @Prop(() => ID)
  id!: string;

  @Prop(() => SignInMethodEnum, { enumRef: true })
  method!: SignInMethod;

  @Prop(() => [TokenScopeEnum], { enumRef: true, description: "What the session's access tokens may do" })
  scopes!: TokenScope[];

  @Prop(() => String, { nullable: true, description: 'The browser or program that signed in, as it named itself' })
  userAgent!: string | null;

  @Prop()
  createdAt!: Date;

  @Prop({ description: 'When its refresh token was last used (or it began)' })
  lastUsedAt!: Date;

  @Prop({ description: 'When it ends unless refreshed before' })
  expiresAt!: Date;

  @Prop(() => Date, { nullable: true })
  revokedAt!: Date | null;

  @Prop({ description: "The session of the token making this request" })
  current!: boolean;
}

@Model({ description: "A page of the caller's sessions, most recently used first" })
export class SessionPage {
  @Prop(() => [Session])
  sessions!: Session[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More sessions follow this page' })
  hasMore!: boolean;
}

@Model({ description: 'A new session, or the next pair of tokens of one: keep the refresh token secret, it is shown once' })
export class SessionTokens {
  @Prop(() => Player)
  player!: Player;

  @Prop(() => Session)
  session!: Session;

  @Prop({ description: 'The bearer token for requests; it stops working at accessTokenExpiresAt', example: 'mzk_…' })
  accessToken!: string;

  @Prop()
  accessTokenExpiresAt!: Date;

  @Prop({
    description: 'Trade it once, before the session expires, for the next pair (refreshSession); a second use ends the session',
    example: 'mzr_…',
  })
  refreshToken!: string;
}
