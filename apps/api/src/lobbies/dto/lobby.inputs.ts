import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { TARGET_MAX, TARGET_MIN } from '@mizerka/rules';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsEnum, IsInt, IsObject, IsOptional, IsString, IsUUID, Length, Min, ValidateNested } from 'class-validator';
import { PRESET_WORDS, TimeControlInput } from '../../games/index.js';
import { Prop } from '../../common/model-field.js';
import { PageArgs } from '../../common/paging.js';
import { LobbyVisibility } from '../models/lobby.model.js';

/**
 * Rule options. Their values are checked by the rules (`makeRules`), not here, so a client
 * gets the rules' own message for a bad one; over REST an unknown key reaches the rules too.
 */
@InputType()
export class LobbyRuleOptionsInput {
  @Prop(() => String, {
    optional: true,
    description: 'contract family: "reversed" (default) or "same"',
    api: { enum: ['reversed', 'same'] },
  })
  mizerkaQuotas?: string | null;

  @Prop(() => Int, {
    optional: true,
    description: `bidding family: the total that ends the game, ${TARGET_MIN} to ${TARGET_MAX} (default 300)`,
    example: 300,
    api: { minimum: TARGET_MIN, maximum: TARGET_MAX },
  })
  target?: number | null;

  @Prop(() => Boolean, { optional: true, description: 'bidding family: allow the double-misère bid (default false)' })
  doubleMisere?: boolean | null;
}

@InputType()
export class CreateLobbyInput {
  @Prop({ description: PRESET_WORDS, example: 'classic' })
  @IsString()
  @Length(1, 32, { message: 'preset must be 1 to 32 characters long' })
  preset!: string;

  @Prop(() => LobbyRuleOptionsInput, { optional: true })
  @IsOptional()
  @IsObject({ message: 'options must be an object' })
  options?: LobbyRuleOptionsInput | null;

  @Prop(() => LobbyVisibility, { optional: true, enumRef: true, description: 'Default public', api: { default: LobbyVisibility.public } })
  @IsOptional()
  @IsEnum(LobbyVisibility, { message: 'visibility must be "public" or "unlisted"' })
  visibility?: LobbyVisibility | null;

  @Prop(() => TimeControlInput, { optional: true, description: 'A move clock for the game; omitted: untimed' })
  @IsOptional()
  @IsObject({ message: 'timeControl must be an object' })
  @ValidateNested()
  @Type(() => TimeControlInput)
  timeControl?: TimeControlInput | null;

  @Prop(() => Int, { optional: true, description: "The host's seat; default 0", api: { default: 0, minimum: 0 } })
  @IsOptional()
  @IsInt({ message: 'seat must be a whole number' })
  seat?: number | null;

  @Prop(() => Boolean, {
    optional: true,
    description: "Whether the game changes its players' ratings; default true for a public lobby, false for an unlisted one",
  })
  @IsOptional()
  @IsBoolean({ message: 'rated must be true or false' })
  rated?: boolean | null;

  @Prop(() => Boolean, {
    optional: true,
    description: "Whether spectators may read the players' table talk (never write in it); default false. Spectators always have their own room, which the players do not see while the game is played",
  })
  @IsOptional()
  @IsBoolean({ message: 'spectatorsSeeTableChat must be true or false' })
  spectatorsSeeTableChat?: boolean | null;
}

@InputType()
export class JoinLobbyInput {
  @Field(() => ID, { nullable: true, description: 'The lobby to join (public lobbies, or one you were given the id of)' })
  @IsOptional()
  @IsUUID('all', { message: 'lobbyId must be a valid id' })
  lobbyId?: string | null;

  @Field(() => String, { nullable: true, description: 'Or its invite code (case, spaces and dashes ignored)' })
  @IsOptional()
  @IsString()
  @Length(1, 32, { message: 'inviteCode must be 1 to 32 characters long' })
  inviteCode?: string | null;

  @Field(() => Int, { nullable: true, description: 'A free seat; omitted: the lowest free seat' })
  @IsOptional()
  @IsInt({ message: 'seat must be a whole number' })
  seat?: number | null;
}

/** REST body of POST /lobbies/:id/join. */
export class JoinSeatBody {
  @ApiProperty({ required: false, description: 'A free seat; omitted: the lowest free seat', minimum: 0 })
  @IsOptional()
  @IsInt({ message: 'seat must be a whole number' })
  seat?: number | null;
}

/** REST body of POST /lobbies/join-by-code. */
export class JoinByCodeBody {
  @ApiProperty({ example: 'K7QX4M2P', description: 'Case, spaces and dashes are ignored' })
  @IsString()
  @Length(1, 32, { message: 'inviteCode must be 1 to 32 characters long' })
  inviteCode!: string;

  @ApiProperty({ required: false, description: 'A free seat; omitted: the lowest free seat', minimum: 0 })
  @IsOptional()
  @IsInt({ message: 'seat must be a whole number' })
  seat?: number | null;
}

/** The list's filter and page: GraphQL arguments and REST query parameters alike. */
@ArgsType()
export class ListLobbiesArgs extends PageArgs {
  @Prop({ optional: true, description: 'Only lobbies of this preset', example: 'classic' })
  @IsOptional()
  @IsString()
  @Length(1, 32, { message: 'preset must be 1 to 32 characters long' })
  preset?: string;

  @Prop(() => Boolean, { optional: true, description: 'Only timed lobbies (true) or only untimed ones (false)' })
  @IsOptional()
  @IsBoolean({ message: 'timed must be true or false' })
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  timed?: boolean;

  @Prop(() => Int, { optional: true, description: 'Only timed lobbies with at most this many seconds per move', example: 86400 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'maxMoveSeconds must be a whole number' })
  @Min(1, { message: 'maxMoveSeconds must be at least 1' })
  maxMoveSeconds?: number;
}
