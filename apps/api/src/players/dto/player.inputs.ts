import { InputType } from '@nestjs/graphql';
import { IsString, Length, Matches } from 'class-validator';
import { Prop } from '../../common/model-field.js';

export const PLAYER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

@InputType()
export class RegisterInput {
  @Prop({
    description: '3 to 32 letters, digits, "_" or "-", starting with a letter or digit; unique ignoring case',
    example: 'ala',
    api: { minLength: 3, maxLength: 32, pattern: PLAYER_NAME.source },
  })
  @IsString()
  @Length(3, 32, { message: 'name must be 3 to 32 characters long' })
  @Matches(PLAYER_NAME, { message: 'name may hold only letters, digits, "_" and "-", and must start with a letter or digit' })
  name!: string;
}

@InputType()
export class CreateApiTokenInput {
  @Prop({ description: 'A label for the token, 1 to 64 characters', example: 'laptop', api: { minLength: 1, maxLength: 64 } })
  @IsString()
  @Length(1, 64, { message: 'token name must be 1 to 64 characters long' })
  name!: string;
}
