import { Field, ID } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { JSONScalar } from '../../common/json.scalar.js';
import { Model, Prop } from '../../common/model-field.js';

@Model({ description: "One of the caller's passkeys: its name and when it was made and last used (never its key)" })
export class Passkey {
  @Prop(() => ID)
  id!: string;

  @Prop({ description: 'A name to tell it from the others (the device or password manager it lives in)', example: 'Phone' })
  label!: string;

  @Prop()
  createdAt!: Date;

  @Prop(() => Date, { nullable: true, description: 'When it last signed in; null if never' })
  lastUsedAt!: Date | null;
}

const OPTIONS = 'WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON): pass them to navigator.credentials, or to @simplewebauthn/browser';

@Model({ description: 'A passkey ceremony begun: answer it with the browser\'s credential and challengeId within 5 minutes, once' })
export class PasskeyChallenge {
  @Prop(() => ID, { description: 'Send it back with the answer' })
  challengeId!: string;

  @Field(() => JSONScalar, { description: OPTIONS })
  @ApiProperty({ type: 'object', additionalProperties: true, description: OPTIONS })
  options!: Record<string, unknown>;
}
