import { ArgsType, Int, InputType } from '@nestjs/graphql';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { DateTimeInput } from '../../common/date-time.js';
import { Prop } from '../../common/model-field.js';
import { PageArgs } from '../../common/paging.js';
import { PRESET_WORDS, TimeControlInput } from '../../games/index.js';
import { LobbyRuleOptionsInput } from '../../lobbies/dto/lobby.inputs.js';
import { ARENA_MAX_MINUTES, MAX_ROUNDS, MAX_TOURNAMENT_PLAYERS, ROUND_MINUTES, TOURNAMENT_FORMATS } from '../tournament-options.js';

@InputType()
export class TournamentFormatOptionsInput {
  @Prop(() => Int, { optional: true, description: `Swiss: the number of rounds (required); duplicate: the number of boards, one round each (required); 1 to ${MAX_ROUNDS}` })
  @IsOptional()
  @IsInt({ message: 'formatOptions.rounds must be a whole number' })
  @Min(1, { message: `formatOptions.rounds must be 1 to ${MAX_ROUNDS}` })
  @Max(MAX_ROUNDS, { message: `formatOptions.rounds must be 1 to ${MAX_ROUNDS}` })
  rounds?: number | null;

  @Prop(() => Int, { optional: true, description: 'Minutes a round may last; past it the games still under way are forfeited by the seat to move' })
  @IsOptional()
  @IsInt({ message: 'formatOptions.roundMinutes must be a whole number' })
  @Min(ROUND_MINUTES.min, { message: `formatOptions.roundMinutes must be ${ROUND_MINUTES.min} to ${ROUND_MINUTES.max}` })
  @Max(ROUND_MINUTES.max, { message: `formatOptions.roundMinutes must be ${ROUND_MINUTES.min} to ${ROUND_MINUTES.max}` })
  roundMinutes?: number | null;

  @Prop(() => Int, { optional: true, description: `Arena: the window in minutes from the start (required), 1 to ${ARENA_MAX_MINUTES}; no table sits down after it` })
  @IsOptional()
  @IsInt({ message: 'formatOptions.minutes must be a whole number' })
  @Min(1, { message: `formatOptions.minutes must be 1 to ${ARENA_MAX_MINUTES}` })
  @Max(ARENA_MAX_MINUTES, { message: `formatOptions.minutes must be 1 to ${ARENA_MAX_MINUTES}` })
  minutes?: number | null;

  @Prop(() => Boolean, { optional: true, description: 'Arena: after two wins in a row, games count double until one is not a win' })
  @IsOptional()
  @IsBoolean({ message: 'formatOptions.arenaStreak must be true or false' })
  arenaStreak?: boolean | null;
}

@InputType()
export class CreateTournamentInput {
  @Prop({ example: 'Friday Swiss' })
  @IsString({ message: 'name must be a string' })
  @Length(1, 64, { message: 'name must be 1 to 64 characters long' })
  name!: string;

  @Prop({ description: PRESET_WORDS, example: 'short' })
  @IsString({ message: 'preset must be a string' })
  @Length(1, 32, { message: 'preset must be 1 to 32 characters long' })
  preset!: string;

  @Prop(() => LobbyRuleOptionsInput, { optional: true })
  @IsOptional()
  @IsObject({ message: 'options must be an object' })
  options?: LobbyRuleOptionsInput | null;

  @Prop({ description: TOURNAMENT_FORMATS.join(', '), example: 'swiss', api: { enum: [...TOURNAMENT_FORMATS] } })
  @IsIn(TOURNAMENT_FORMATS, { message: `format must be one of ${TOURNAMENT_FORMATS.join(', ')}` })
  format!: string;

  @Prop(() => TournamentFormatOptionsInput, { optional: true })
  @IsOptional()
  @IsObject({ message: 'formatOptions must be an object' })
  @ValidateNested()
  @Type(() => TournamentFormatOptionsInput)
  formatOptions?: TournamentFormatOptionsInput | null;

  @Prop(() => TimeControlInput, { optional: true, description: 'The move clock of every game; omitted: untimed' })
  @IsOptional()
  @IsObject({ message: 'timeControl must be an object' })
  @ValidateNested()
  @Type(() => TimeControlInput)
  timeControl?: TimeControlInput | null;

  @Prop(() => Boolean, { optional: true, description: "Whether a player's vacation stops its games' clocks; default true" })
  @IsOptional()
  @IsBoolean({ message: 'vacationAllowed must be true or false' })
  vacationAllowed?: boolean | null;

  @Prop(() => Date, { optional: true, description: 'When it starts; omitted: once minPlayers have joined' })
  @IsOptional()
  @DateTimeInput('startsAt')
  startsAt?: Date | null;

  @Prop(() => Int, { optional: true, description: 'Default: one table' })
  @IsOptional()
  @IsInt({ message: 'minPlayers must be a whole number' })
  @Min(1, { message: `minPlayers must be 1 to ${MAX_TOURNAMENT_PLAYERS}` })
  @Max(MAX_TOURNAMENT_PLAYERS, { message: `minPlayers must be 1 to ${MAX_TOURNAMENT_PLAYERS}` })
  minPlayers?: number | null;

  @Prop(() => Int, { optional: true, description: `Default 64, at most ${MAX_TOURNAMENT_PLAYERS}` })
  @IsOptional()
  @IsInt({ message: 'maxPlayers must be a whole number' })
  @Min(1, { message: `maxPlayers must be 1 to ${MAX_TOURNAMENT_PLAYERS}` })
  @Max(MAX_TOURNAMENT_PLAYERS, { message: `maxPlayers must be 1 to ${MAX_TOURNAMENT_PLAYERS}` })
  maxPlayers?: number | null;

  @Prop(() => Boolean, { optional: true, description: 'Whether its games are rated; default false' })
  @IsOptional()
  @IsBoolean({ message: 'rated must be true or false' })
  rated?: boolean | null;

  @Prop(() => String, { optional: true, description: 'public (default) or invite (joined with the code the creation answers)', api: { enum: ['public', 'invite'] } })
  @IsOptional()
  @IsIn(['public', 'invite'], { message: 'visibility must be "public" or "invite"' })
  visibility?: string | null;

  @Prop(() => String, { optional: true, description: 'Server bots of this level fill the field at the start (to minPlayers and whole tables); omitted: none' })
  @IsOptional()
  @IsString({ message: 'botLevel must be a string' })
  @Length(1, 16, { message: 'botLevel must be 1 to 16 characters long' })
  botLevel?: string | null;

  @Prop(() => Boolean, { optional: true, description: 'A featured event, listed as such: only a tournament admin (TOURNAMENT_ADMINS, with a token of the admin scope) may set it; default false' })
  @IsOptional()
  @IsBoolean({ message: 'featured must be true or false' })
  featured?: boolean | null;
}

/** REST body of POST /tournaments/:id/join. */
@InputType()
export class JoinTournamentBody {
  @Prop(() => String, { optional: true, description: "An invite tournament's code (case, spaces and dashes ignored)" })
  @IsOptional()
  @IsString({ message: 'inviteCode must be a string' })
  @Length(1, 32, { message: 'inviteCode must be 1 to 32 characters long' })
  inviteCode?: string | null;
}

@ArgsType()
export class ListTournamentsArgs extends PageArgs {
  @Prop(() => String, { optional: true, description: 'Only tournaments of this status: open, running, finished, cancelled', api: { enum: ['open', 'running', 'finished', 'cancelled'] } })
  @IsOptional()
  @IsIn(['open', 'running', 'finished', 'cancelled'], { message: 'status must be open, running, finished or cancelled' })
  status?: string | null;

  @Prop(() => Boolean, { optional: true, description: 'true: only featured events (made by the tournament admins); false: only players\' tournaments; omitted: both' })
  @IsOptional()
  @IsBoolean({ message: 'featured must be true or false' })
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  featured?: boolean | null;
}
