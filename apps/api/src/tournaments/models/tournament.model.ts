import { Float, ID, Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';
import { PRESET_WORDS, TimeControlModel } from '../../games/index.js';
import { LobbyRuleOptions } from '../../lobbies/models/lobby.model.js';

@Model({ description: 'An entrant of a tournament' })
export class TournamentEntrant {
  @Prop(() => ID)
  playerId!: string;

  @Prop({ description: "A server bot the organiser's bot fill seated" })
  bot!: boolean;

  @Prop()
  joinedAt!: Date;

  @Prop(() => Date, { nullable: true, description: 'Withdrawn during the event: paired no more, remaining games forfeited' })
  withdrawnAt!: Date | null;
}

@Model({ description: "A player's line of the standings (docs/tournaments.md: points by place, tie-breaks)" })
export class TournamentStanding {
  @Prop(() => ID)
  playerId!: string;

  @Prop(() => Int, { description: '1 = first; players equal on points and tie-breaks share a rank' })
  rank!: number;

  @Prop(() => Float, { description: 'Points by place (docs/tournaments.md, Scoring), a bye (n-1)/2' })
  points!: number;

  @Prop(() => [Float], { description: "The format's tie-breaks, in the order of the tournament's tieBreaks; higher is better" })
  tieBreaks!: number[];

  @Prop(() => Int)
  games!: number;

  @Prop(() => Int)
  byes!: number;

  @Prop({ description: 'A server bot that filled a table' })
  bot!: boolean;
}

@Model({ description: 'A table of a round: its game' })
export class TournamentTable {
  @Prop(() => Int)
  table!: number;

  @Prop(() => ID)
  gameId!: string;

  @Prop(() => Int, { nullable: true, description: 'Duplicate: the board played; null otherwise' })
  board!: number | null;

  @Prop({ description: 'active or finished' })
  status!: string;

  @Prop(() => [ID], { description: 'The players by seat' })
  players!: string[];

  @Prop(() => [Int], { nullable: true, description: "Places by seat (1 = first) once the game is over (duplicate: once its board is released)" })
  places!: number[] | null;

  @Prop(() => [Int], { description: "Totals by seat so far; empty for a duplicate table until its board's release" })
  totals!: number[];
}

@Model({ description: 'A round of a tournament and its tables' })
export class TournamentRoundView {
  @Prop(() => Int)
  number!: number;

  @Prop({ description: 'running or finished' })
  status!: string;

  @Prop(() => Date, { nullable: true, description: 'Past it, unfinished games are forfeited by the seat to move' })
  deadline!: Date | null;

  @Prop()
  startedAt!: Date;

  @Prop(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Prop(() => [ID], { description: 'Players sitting this round out' })
  byes!: string[];

  @Prop(() => [TournamentTable])
  tables!: TournamentTable[];
}

@Model({ description: "Duplicate: one result on a board, compared with the others of its seat position (the same cards)" })
export class TournamentBoardResult {
  @Prop(() => Int, { description: 'The seat position (0-based): the same cards at every table' })
  position!: number;

  @Prop(() => ID)
  playerId!: string;

  @Prop(() => Int, { description: "The game's final total of this seat" })
  score!: number;

  @Prop(() => Float, { description: 'One for each result of the position beaten, a half for each tied (a forfeit beats none)' })
  matchpoints!: number;

  @Prop(() => Int, { description: 'The results compared with: the most matchpoints possible' })
  tops!: number;
}

@Model({ description: 'Duplicate: a board, committed at creation; its seed and comparison are shown once every table has finished it' })
export class TournamentBoardView {
  @Prop(() => Int, { description: 'Round n plays board n' })
  number!: number;

  @Prop({ description: "SHA-256 (hex) of the board's seed, public from the creation: the seed cannot change" })
  seedHash!: string;

  @Prop({ description: 'Every table of the board has finished: its games, seed and comparison are shown' })
  released!: boolean;

  @Prop(() => String, { nullable: true, description: 'The seed (32 hex digits) once released; null before' })
  seed!: string | null;

  @Prop(() => [TournamentBoardResult], { nullable: true, description: 'Per seat position, each result and its matchpoints, once released; null before' })
  results!: TournamentBoardResult[] | null;
}

@Model({ description: 'A tournament: rounds of tables whose games start through the normal game start' })
export class TournamentView {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'Friday Swiss' })
  name!: string;

  @Prop(() => ID)
  creatorId!: string;

  @Prop({ description: `The rules preset: ${PRESET_WORDS}`, example: 'short' })
  preset!: string;

  @Prop(() => LobbyRuleOptions)
  options!: Record<string, unknown>;

  @Prop({ description: 'round-robin, swiss, arena or duplicate', example: 'swiss' })
  format!: string;

  @Prop(() => Int, { nullable: true, description: 'Swiss: the rounds chosen; duplicate: the boards (one round each); round-robin: null (its schedule decides)' })
  rounds!: number | null;

  @Prop(() => Int, { nullable: true, description: 'Minutes a round may last; null: no round deadline' })
  roundMinutes!: number | null;

  @Prop(() => Int, { nullable: true, description: 'Arena: the window in minutes from the start; null for the other formats' })
  minutes!: number | null;

  @Prop(() => Date, { nullable: true, description: 'Arena: when the window closes (no table sits down after it); null before the start and for the other formats' })
  endsAt!: Date | null;

  @Prop({ description: 'Arena: after two wins in a row, games count double until one is not a win' })
  arenaStreak!: boolean;

  @Prop(() => Int, { description: "Players at a table (the preset's)" })
  tableSize!: number;

  @Prop(() => TimeControlModel, { nullable: true })
  timeControl!: TimeControlModel | null;

  @Prop({ description: "Whether a player's vacation stops the clocks of its games" })
  vacationAllowed!: boolean;

  @Prop(() => Date, { nullable: true, description: 'When it starts; null: when minPlayers have joined' })
  startsAt!: Date | null;

  @Prop(() => Int)
  minPlayers!: number;

  @Prop(() => Int)
  maxPlayers!: number;

  @Prop()
  rated!: boolean;

  @Prop({ description: 'public or invite' })
  visibility!: string;

  @Prop({ description: 'A featured event, created by a tournament admin (TOURNAMENT_ADMINS)' })
  featured!: boolean;

  @Prop(() => String, { nullable: true, description: 'Server bots of this level fill the field at the start; null: people only' })
  botLevel!: string | null;

  @Prop({ description: 'open, running, finished or cancelled' })
  status!: string;

  @Prop(() => Int, { description: 'The round under way (0 before the start)' })
  round!: number;

  @Prop(() => [TournamentEntrant])
  players!: TournamentEntrant[];

  @Prop(() => [String], { description: 'The names of the standings\' tie-breaks, in order (docs/tournaments.md)' })
  tieBreaks!: string[];

  @Prop(() => [TournamentStanding], { description: 'Computed from the games counted so far' })
  standings!: TournamentStanding[];

  @Prop()
  createdAt!: Date;

  @Prop(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Prop(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Prop(() => String, { nullable: true, description: 'The invite code, in the answer to its creation only (kept as a hash)' })
  inviteCode!: string | null;

  @Prop(() => [TournamentBoardView], { description: 'Duplicate: the boards, in order; empty for the other formats' })
  boards!: TournamentBoardView[];
}

@Model({ description: 'A page of tournaments, newest first' })
export class TournamentPage {
  @Prop(() => [TournamentView])
  items!: TournamentView[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More tournaments follow this page' })
  hasMore!: boolean;
}
