import { Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { JSONScalar } from '../../common/json.scalar.js';
import { Prop } from '../../common/model-field.js';
import { PlayerNameField } from '../../players/dto/player.inputs.js';

@InputType()
export class StartPasskeySignUpInput {
  // The same rules as register's.
  @PlayerNameField()
  name!: string;
}

const RESPONSE = "The browser's credential as JSON (RegistrationResponseJSON or AuthenticationResponseJSON, as @simplewebauthn/browser gives it); at most 32 KiB";

@InputType()
export class FinishPasskeyInput {
  @Prop(() => ID, { description: 'The challengeId of the ceremony begun' })
  @IsUUID('all', { message: 'challengeId must be the id a start… answered' })
  challengeId!: string;

  @Field(() => JSONScalar, { description: RESPONSE })
  @ApiProperty({ type: 'object', additionalProperties: true, description: RESPONSE })
  @IsObject({ message: 'response must be the credential as a JSON object' })
  response!: Record<string, unknown>;
}

@InputType()
export class FinishPasskeyRegistrationInput extends FinishPasskeyInput {
  @Prop(() => String, { optional: true, description: 'A name for the passkey, 1 to 64 characters (default "Passkey")', api: { minLength: 1, maxLength: 64 } })
  @IsOptional()
  @IsString()
  @Length(1, 64, { message: 'label must be 1 to 64 characters long' })
  label?: string | null;
}
