import { InputType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Prop } from '../../common/model-field.js';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The keys of a browser's subscription, as `PushSubscription.toJSON().keys` gives them. */
@InputType()
export class PushSubscriptionKeysInput {
  @Prop({ description: "The browser's P-256 public key (65 bytes), base64url", api: { maxLength: 100 } })
  @IsString()
  @MaxLength(100, { message: 'keys.p256dh must be at most 100 characters' })
  @Matches(BASE64URL, { message: 'keys.p256dh must be base64url' })
  p256dh!: string;

  @Prop({ description: "The browser's auth secret (16 bytes), base64url", api: { maxLength: 32 } })
  @IsString()
  @MaxLength(32, { message: 'keys.auth must be at most 32 characters' })
  @Matches(BASE64URL, { message: 'keys.auth must be base64url' })
  auth!: string;
}

@InputType()
export class AddPushSubscriptionInput {
  @Prop({
    description: "The push service's URL for this browser (`PushSubscription.endpoint`): https, at most 2048 characters, on a public address",
    api: { maxLength: 2048 },
  })
  @IsString()
  @Length(1, 2048, { message: 'endpoint must be 1 to 2048 characters long' })
  endpoint!: string;

  @Prop(() => PushSubscriptionKeysInput, { description: 'The keys notices are encrypted to (RFC 8291)' })
  @IsObject({ message: 'keys must be an object with p256dh and auth' })
  @ValidateNested()
  @Type(() => PushSubscriptionKeysInput)
  keys!: PushSubscriptionKeysInput;

  @Prop(() => String, { optional: true, description: 'A name for the device, 1 to 64 characters (default: from the User-Agent, such as "Firefox on Android")', api: { minLength: 1, maxLength: 64 } })
  @IsOptional()
  @IsString()
  @Length(1, 64, { message: 'label must be 1 to 64 characters long' })
  label?: string | null;
}
