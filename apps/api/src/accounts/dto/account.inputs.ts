import { InputType } from '@nestjs/graphql';
import { IsEmail, IsOptional, IsString, Length } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { PlayerNameField } from '../../players/dto/player.inputs.js';

// NIST SP 800-63B: length only (8 or more; long ones allowed), no rules on what it holds.
const PASSWORD = { min: 8, max: 256 } as const;
const EMAIL_MAX = 254;

@InputType()
export class SignUpInput {
  @PlayerNameField()
  name!: string;

  @Prop({ description: '8 to 256 characters, any', api: { minLength: PASSWORD.min, maxLength: PASSWORD.max } })
  @IsString()
  @Length(PASSWORD.min, PASSWORD.max, { message: 'password must be 8 to 256 characters long' })
  password!: string;

  @Prop(() => String, {
    optional: true,
    description: 'An email to verify (a link is mailed to it); once verified it signs in and resets the password',
    api: { maxLength: EMAIL_MAX },
  })
  @IsOptional()
  @IsString()
  @Length(3, EMAIL_MAX, { message: 'email must be 3 to 254 characters long' })
  @IsEmail({}, { message: 'email must be an email address' })
  email?: string | null;
}

@InputType()
export class SignInInput {
  @Prop({ description: 'The player name (any case) or a verified email', example: 'ala', api: { minLength: 1, maxLength: EMAIL_MAX } })
  @IsString()
  @Length(1, EMAIL_MAX, { message: 'login must be 1 to 254 characters long' })
  login!: string;

  @Prop({ api: { minLength: 1, maxLength: PASSWORD.max } })
  @IsString()
  @Length(1, PASSWORD.max, { message: 'password must be 1 to 256 characters long' })
  password!: string;
}

@InputType()
export class SetPasswordInput {
  @Prop({ description: '8 to 256 characters, any', api: { minLength: PASSWORD.min, maxLength: PASSWORD.max } })
  @IsString()
  @Length(PASSWORD.min, PASSWORD.max, { message: 'newPassword must be 8 to 256 characters long' })
  newPassword!: string;

  @Prop(() => String, { optional: true, description: 'Required when the account has a password', api: { maxLength: PASSWORD.max } })
  @IsOptional()
  @IsString()
  @Length(1, PASSWORD.max, { message: 'currentPassword must be 1 to 256 characters long' })
  currentPassword?: string | null;
}

@InputType()
export class SetEmailInput {
  @Prop({ description: 'The address to verify; a link valid 24 hours is mailed to it', example: 'ala@example.com', api: { maxLength: EMAIL_MAX } })
  @IsString()
  @Length(3, EMAIL_MAX, { message: 'email must be 3 to 254 characters long' })
  @IsEmail({}, { message: 'email must be an email address' })
  email!: string;
}

@InputType()
export class AccountTokenInput {
  @Prop({ description: 'The token of the link mailed', api: { minLength: 1, maxLength: 200 } })
  @IsString()
  @Length(1, 200, { message: 'token must be 1 to 200 characters long' })
  token!: string;
}

@InputType()
export class RequestPasswordResetInput {
  @Prop({ description: 'The player name or the verified email', api: { minLength: 1, maxLength: EMAIL_MAX } })
  @IsString()
  @Length(1, EMAIL_MAX, { message: 'login must be 1 to 254 characters long' })
  login!: string;
}

@InputType()
export class ResetPasswordInput {
  @Prop({ description: 'The token of the reset link mailed', api: { minLength: 1, maxLength: 200 } })
  @IsString()
  @Length(1, 200, { message: 'token must be 1 to 200 characters long' })
  token!: string;

  @Prop({ description: '8 to 256 characters, any', api: { minLength: PASSWORD.min, maxLength: PASSWORD.max } })
  @IsString()
  @Length(PASSWORD.min, PASSWORD.max, { message: 'newPassword must be 8 to 256 characters long' })
  newPassword!: string;
}
