import { GraphQLISODateTime, ID, Int } from '@nestjs/graphql';
import { registerEnum, Model, Prop } from '../../common/model-field.js';
import { EndReasonEnum, FamilyEnum, type FamilyValue, GamePlayer, PLAYER_COUNT_WORDS } from '../../games/index.js';
import type { HistoryStatus } from '../history.sql.js';

export const HistoryStatusEnum = { active: 'active', finished: 'finished', forfeited: 'forfeited' } as const satisfies Record<string, HistoryStatus>;
export const GameResultEnum = { WON: 'WON', LOST: 'LOST' } as const;
export type GameResultValue = keyof typeof GameResultEnum;

registerEnum(HistoryStatusEnum, {
  name: 'HistoryStatus',
  description: 'active (being played), finished (played to its end, or resigned), forfeited (ended because a seat forfeited on time)',
});
registerEnum(GameResultEnum, { name: 'GameResult', description: 'WON: first place (shared or not); LOST: any other place' });

@Model({ description: 'A game in a history list: who sat where, how it stands or ended; never a card' })
export class GameHistoryItem {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'classic' })
  preset!: string;

  @Prop(() => FamilyEnum, { enumRef: true })
  family!: FamilyValue;

  @Prop(() => Int, { description: `Players at the table: ${PLAYER_COUNT_WORDS}` })
  playerCount!: number;

  @Prop(() => [GamePlayer], { description: 'By seat: name, kind (bots are shown as such), total, place' })
  players!: GamePlayer[];

  @Prop(() => HistoryStatusEnum, { enumRef: true })
  status!: HistoryStatus;

  @Prop({ description: 'Whether the game changes its players’ ratings' })
  rated!: boolean;

  @Prop({ description: 'An archived game a player uploaded as a record: never played here, unrated' })
  imported!: boolean;

  @Prop(() => String, { nullable: true, description: 'Who uploaded it, when imported' })
  importedBy!: string | null;

  @Prop(() => GraphQLISODateTime)
  createdAt!: Date;

  @Prop(() => GraphQLISODateTime, { nullable: true })
  finishedAt!: Date | null;

  @Prop(() => EndReasonEnum, { nullable: true, enumRef: true, description: 'Set when the game ended early' })
  endReason!: string | null;
}

@Model()
export class GameEdge {
  @Prop({ description: 'Pass as `after` to read on after this game' })
  cursor!: string;

  @Prop(() => GameHistoryItem)
  node!: GameHistoryItem;
}

@Model('PageInfo')
export class PageInfo {
  @Prop()
  hasNextPage!: boolean;

  @Prop(() => String, { nullable: true })
  endCursor!: string | null;
}

@Model({ description: 'Games newest first, by page (Relay cursor connection)' })
export class GameConnection {
  @Prop(() => [GameEdge])
  edges!: GameEdge[];

  @Prop(() => PageInfo)
  pageInfo!: PageInfo;
}

@Model({ description: 'Games newest first, by page: the same games and cursors as the GraphQL connection' })
export class GameHistoryPage {
  @Prop(() => [GameHistoryItem])
  items!: GameHistoryItem[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More games follow this page' })
  hasMore!: boolean;
}

@Model({ description: 'A record imported as an archived game' })
export class ImportedGame {
  @Prop(() => ID)
  gameId!: string;

  @Prop(() => Int, { description: 'The importer’s seat' })
  seat!: number;
}

@Model({ description: 'One of the caller’s games: a history summary, with the caller’s seat and turn' })
export class MyGameItem extends GameHistoryItem {
  @Prop(() => Int, { description: 'The seq of the last entry of the event log' })
  version!: number;

  @Prop(() => Int, { nullable: true })
  toMove!: number | null;

  @Prop(() => Int)
  mySeat!: number;

  @Prop({ description: 'Whether the caller holds the seat to move' })
  myTurn!: boolean;

  @Prop(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@Model({ description: "The caller's games newest first, filtered, by page" })
export class MyGamesPage {
  @Prop(() => [MyGameItem])
  items!: MyGameItem[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More games follow this page' })
  hasMore!: boolean;
}
