import { applyDecorators } from '@nestjs/common';
import { InputType, Int } from '@nestjs/graphql';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import type { TokenScope } from '../../auth/scopes.js';
import { PLAYER_NAME } from '../../common/player-names.js';
import { Prop } from '../../common/model-field.js';
import { TokenScopeEnum } from '../models/token-scope.enum.js';

export { PLAYER_NAME };

/** A new player's name, with the rules and messages every way of signing up shares. */
export function PlayerNameField(): PropertyDecorator {
  return applyDecorators(
    Prop({
      description: '3 to 32 letters, digits, "_" or "-", starting with a letter or digit; unique ignoring case',
      example: 'ala',
      api: { minLength: 3, maxLength: 32, pattern: PLAYER_NAME.source },
    }),
    IsString(),
    Length(3, 32, { message: 'name must be 3 to 32 characters long' }),
    Matches(PLAYER_NAME, { message: 'name may hold only letters, digits, "_" and "-", and must start with a letter or digit' }),
  );
}

@InputType()
export class RegisterInput {
  @PlayerNameField()
  name!: string;

  @Prop(() => Boolean, {
    optional: true,
    description: 'A bot account: a program that plays through this API with its own token; shown as a bot everywhere. Default false',
  })
  @IsOptional()
  @IsBoolean({ message: 'bot must be true or false' })
  bot?: boolean | null;
}

@InputType()
export class CreateApiTokenInput {
  @Prop({ description: 'A label for the token, 1 to 64 characters', example: 'laptop', api: { minLength: 1, maxLength: 64 } })
  @IsString()
  @Length(1, 64, { message: 'token name must be 1 to 64 characters long' })
  name!: string;

  @Prop(() => [TokenScopeEnum], {
    optional: true,
    enumRef: true,
    description: 'What the token may do (default read and play); admin (managing tokens) must be asked for',
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty({ message: 'scopes must name at least one scope' })
  @ArrayMaxSize(4)
  @IsIn(Object.values(TokenScopeEnum), { each: true, message: 'scopes may hold only read, webhooks, play and admin' })
  scopes?: TokenScope[];

  @Prop(() => Int, {
    optional: true,
    description: 'The token stops working this many seconds from now (60 to 31536000, a year); default: never',
    api: { minimum: 60, maximum: 31_536_000 },
  })
  @IsOptional()
  @IsInt()
  @Min(60, { message: 'expiresInSeconds must be 60 to 31536000' })
  @Max(31_536_000, { message: 'expiresInSeconds must be 60 to 31536000' })
  expiresInSeconds?: number;
}
