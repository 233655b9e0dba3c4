import { ID } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';

@Model({ description: "A browser the caller is notified on (Web Push): its name and dates, never its endpoint or keys" })
export class PushDevice {
  @Prop(() => ID)
  id!: string;

  @Prop({ description: 'A name to tell it from the others', example: 'Firefox on Android' })
  label!: string;

  @Prop()
  createdAt!: Date;

  @Prop(() => Date, { nullable: true, description: 'When its push service last took a notice for it; null if never' })
  lastSuccessAt!: Date | null;
}

@Model({ description: "What a browser subscribes with: the server's VAPID public key (RFC 8292)" })
export class PushPublicKey {
  @Prop({ description: 'The key, base64url (an uncompressed P-256 point): `applicationServerKey` of `pushManager.subscribe`' })
  publicKey!: string;
}
