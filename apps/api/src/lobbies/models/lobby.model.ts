import { ID, Int } from '@nestjs/graphql';
import { Model, Prop, registerEnum } from '../../common/model-field.js';
import { PLAYER_COUNT_WORDS, PRESET_WORDS, TimeControlModel } from '../../games/index.js';
import { BotLevelEnum, PlayerKindEnum, type PlayerKindValue } from '../../players/models/player-kind.enum.js';

export enum LobbyVisibility {
  public = 'public',
  unlisted = 'unlisted',
}
registerEnum(LobbyVisibility, {
  name: 'LobbyVisibility',
  description: 'public: listed for everyone; unlisted: found only through its invite code',
});

export enum LobbyStatus {
  open = 'open',
  started = 'started',
  closed = 'closed',
}
registerEnum(LobbyStatus, {
  name: 'LobbyStatus',
  description: 'open: taking seats; started: its game is under way (or over); closed: everyone left',
});

@Model({ description: 'A player as a lobby shows them' })
export class LobbyPlayer {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'ala' })
  name!: string;

  @Prop(() => PlayerKindEnum, { enumRef: true, description: 'human or bot' })
  kind!: PlayerKindValue;

  @Prop(() => BotLevelEnum, { nullable: true, enumRef: true, description: "A server bot's level; null for a person or a bot account" })
  botLevel!: string | null;
}

@Model({ description: 'One seat of a lobby; seats are numbered 0 .. players-1 clockwise' })
export class LobbySeat {
  @Prop(() => Int, { example: 0 })
  seat!: number;

  @Prop(() => LobbyPlayer, { nullable: true, description: 'null while the seat is free' })
  player!: LobbyPlayer | null;
}

@Model({ description: 'Rule options of a lobby, as normalised by the rules (unset = the preset default)' })
export class LobbyRuleOptions {
  @Prop(() => String, {
    optional: true,
    nullable: true,
    description: 'contract family: "reversed" (default) or "same"',
    api: { enum: ['reversed', 'same'] },
  })
  mizerkaQuotas?: string | null;

  @Prop(() => Int, {
    optional: true,
    nullable: true,
    description: 'bidding family: the total that ends the game (default 300)',
    example: 300,
  })
  target?: number | null;

  @Prop(() => Boolean, { optional: true, nullable: true, description: 'bidding family: whether double misère may be bid (default false)' })
  doubleMisere?: boolean | null;
}

@Model({ description: 'A table waiting for its players; it starts a game once every seat is taken' })
export class Lobby {
  @Prop(() => ID)
  id!: string;

  @Prop({ description: `The rules preset: ${PRESET_WORDS}`, example: 'classic' })
  preset!: string;

  @Prop(() => LobbyRuleOptions)
  options!: LobbyRuleOptions;

  @Prop(() => TimeControlModel, { nullable: true, description: 'The move clock its game will have; null: untimed' })
  timeControl!: TimeControlModel | null;

  @Prop(() => Int, { description: `Number of seats (${PLAYER_COUNT_WORDS}), fixed by the preset`, example: 3 })
  players!: number;

  @Prop(() => LobbyVisibility, { enumRef: true })
  visibility!: LobbyVisibility;

  @Prop(() => LobbyStatus, { enumRef: true })
  status!: LobbyStatus;

  @Prop({ description: 'Share it to invite players; the only way into an unlisted lobby', example: 'K7QX4M2P' })
  inviteCode!: string;

  @Prop(() => LobbyPlayer)
  host!: LobbyPlayer;

  @Prop(() => [LobbySeat], { description: 'Every seat, in seat order, taken or free' })
  seats!: LobbySeat[];

  @Prop(() => Int, { example: 2 })
  seatsTaken!: number;

  @Prop(() => Int, { example: 1 })
  seatsFree!: number;

  @Prop(() => ID, { nullable: true, description: 'The game this lobby started, once it has' })
  gameId!: string | null;

  @Prop(() => ID, { nullable: true, description: '"Play again": the finished game whose players this lobby was made for' })
  previousGameId!: string | null;

  @Prop({ description: "Whether its game changes its players' ratings" })
  rated!: boolean;

  @Prop({ description: "The host's choice: whether spectators may read the players' table talk (they never write in it)" })
  spectatorsSeeTableChat!: boolean;

  @Prop()
  createdAt!: Date;
}

@Model({ description: 'A page of open public lobbies, newest first' })
export class LobbyPage {
  @Prop(() => [Lobby])
  lobbies!: Lobby[];

  @Prop(() => Int, { description: 'Open public lobbies matching the filter, on all pages', example: 12 })
  total!: number;

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More lobbies follow this page' })
  hasMore!: boolean;
}
