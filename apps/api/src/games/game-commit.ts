// A game write as one value (lila's Game → GameRepo → Bus): every writer of a game's rows (a
// start, a move, the server's move or forfeit for a seat, a resignation, an import, the seeding
// script) makes a GameCommit, and `projectCommit` alone turns it into the rows it changes (games,
// game_seats, deals, tricks, game_events), its outbox job and its feed events. game-commit.sql.ts
// renders a projection into one statement. Pure: no NestJS, Prisma or database, so a worker thread
// (the import's replay) may load it, and its tests need no database.
import {
  cardName,
  currentPlayer,
  dealIndex,
  gameEnd,
  outcome,
  phase,
  placesOf,
  encodeState,
  type EndReason,
  type GameEvent,
  type GameState,
} from '@mizerka/rules';
import type { OutboxJob } from '../outbox/outbox-entries.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { dealColumnsOf, dealFactsOf, NO_DEAL_RESULT, type DealColumns, type DealResultColumns } from './deal-facts.js';
import type { NewDeal } from './dealing.js';
import { feedOf, followUpsOf, gameStartedFeed, type TimeOutCause } from './follow-ups.js';
import type { GameClock, TimeControl } from './time-control.js';

export type ActorKind = 'player' | 'system' | 'bot';

/** One entry of the event log. */
export interface LogEntry {
  seq: number;
  /** A move kind, 'deal', 'end' for a resignation or forfeit, or 'away' / 'back' for a seat's vacation. */
  kind: string;
  dealIndex: number;
  seat: number | null;
  /** The seat's player, also when the system or a bot acted for the seat. */
  playerId: string | null;
  actor: ActorKind;
  /** Why, when not an ordinary move: 'resigned', 'timeout', 'forfeit'. */
  cause: string | null;
  /** The move as the record writes it; null for a deal or an end; `{ until }` for 'away'. */
  move: unknown;
  /** The rules' events, with private cards: readers redact them per seat. */
  events: GameEvent[];
  idempotencyKey: string | null;
  /** With a key: the request's SHA-256 and the answer to give to every retry. */
  requestHash: string | null;
  response: unknown;
}

/** A game begun from a full lobby: its seats, and its first deal dealt (log entry 1). */
export interface GameStartCommit {
  type: 'start';
  gameId: string;
  lobbyId: string | null;
  preset: string;
  options: Record<string, unknown>;
  firstDealer: number;
  /** Player ids by seat. */
  seats: readonly string[];
  rated: boolean;
  /** The first deal; its state is the game's. */
  first: NewDeal;
  /** A duplicate board's game: its deals derive from the board's seed, and stay withheld once over (until released). */
  board?: { id: string; seed: string } | null;
  /** The move clock as the first turn starts it; null when untimed. */
  clock: GameClock | null;
  now: Date;
}

/** An accepted action on a game in play (a move, the server's move or forfeit for a seat, a resignation). */
export interface GameMoveCommit {
  type: 'move';
  gameId: string;
  /** The version the action was decided on: the write applies only if it is still current. */
  readVersion: number;
  /** The entries in seq order, the first at readVersion + 1; the last one's seq is the new version. */
  entries: LogEntry[];
  /** A deal dealt by this write (the previous one ended and the game goes on). */
  next: NewDeal | null;
  /** The state after every entry. */
  state: GameState;
  /** The time of the write: the entries' time, and when the next turn began. */
  now: Date;
  /** The move clock after the write (its deadline is the next turn's); null when untimed. */
  clock: GameClock | null;
  /** Player ids by seat. */
  seats: readonly string[];
  /** By seat: whether the server plays it; see followUpsOf. */
  serverBots: readonly boolean[];
  /** Set when the server acted for a seat that ran out of time. */
  timedOut: TimeOutCause;
}

/** A deal of a game written whole (an import, a seeded game). */
export interface ArchivedDeal {
  dealer: number;
  /** The seed its deck was shuffled from (a game dealt here), or null with `deck` (an imported one). */
  seed: string | null;
  deck: string[] | null;
  seedHash: string;
  startedAt: Date | null;
}

/** A log entry of a game written whole, with the time it was made and the deadline it set. */
export interface ArchivedEntry extends LogEntry {
  createdAt: Date | null;
  deadline: Date | null;
}

/**
 * A finished game written whole, in one commit: an imported record (replayed), or a game the
 * seeding script played. Its log is the one a game played here would have; its deals' facts and
 * tricks come from the log's events, by the same rule as a move's.
 */
export interface GameArchiveCommit {
  type: 'archive';
  gameId: string;
  lobbyId: string | null;
  preset: string;
  options: Record<string, unknown>;
  firstDealer: number;
  /** Player ids by seat; null for a seat that is a name only (an imported game's other seats). */
  seats: readonly (string | null)[];
  state: GameState;
  entries: ArchivedEntry[];
  deals: ArchivedDeal[];
  totals: number[];
  winners: number[];
  end: { seat: number; reason: EndReason } | null;
  rated: boolean;
  ratedAt: Date | null;
  timeControl: TimeControl | null;
  clock: GameClock | null;
  /** An import: who imported it, the names and bot marks the record gives its seats, and the record's hash. */
  imported: { by: string; seatNames: string[]; seatBots: string[]; hash: string } | null;
  /** The game's mizerka-record/1 text, stored with it. */
  record: string | null;
  createdAt: Date;
  finishedAt: Date;
}

/**
 * A seat's player went away on vacation ('away') or came back ('back'), in a game that lets a
 * vacation stop its clock: the table hears it in the log (an entry without rules events), and the
 * clock of a turn that is theirs stops or runs again (time-control.ts: pausedClock, resumedClock).
 * The state is unchanged; the version moves on, so a move decided before it is decided again.
 */
export interface GamePresenceCommit {
  type: 'presence';
  gameId: string;
  readVersion: number;
  /** Kind 'away' (its `move` holds `{ until }`, an ISO time) or 'back'; its seq is readVersion + 1. */
  entry: LogEntry;
  state: GameState;
  /** Player ids by seat. */
  seats: readonly string[];
  /** The clock after the write; null when untimed. */
  clock: GameClock | null;
  now: Date;
}

export type GameCommit = GameStartCommit | GameMoveCommit | GameArchiveCommit | GamePresenceCommit;

/** Row sets as the renderer takes them: rows, or their JSON text (made in a worker thread). */
export type RowSet<T> = readonly T[] | string;

/** A games row written whole (a start, an archive). */
export interface GameRow {
  id: string;
  lobbyId: string | null;
  preset: string;
  options: Record<string, unknown>;
  players: number;
  firstDealer: number;
  status: 'active' | 'finished';
  version: number;
  phase: string;
  dealIndex: number;
  toMove: number | null;
  /** The serialised state (JSON text). */
  state: string;
  totals: number[];
  winners: number[];
  timeControl: TimeControl | null;
  turnDeadline: Date | null;
  turnStartedAt: Date | null;
  bankMs: number[];
  timeouts: number[];
  endSeat: number | null;
  endReason: string | null;
  rated: boolean;
  ratedAt: Date | null;
  importedBy: string | null;
  seatNames: string[];
  seatBots: string[];
  /** With importedBy: a second import of the same record by the same player writes nothing. */
  importHash: string | null;
  /** A duplicate board's game: the board, its seed (the next deals'), and its cards withheld until released. */
  boardId: string | null;
  boardSeed: string | null;
  revealHeld: boolean;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A games row changed by a move, applied only where its version is still `readVersion`. */
export interface GameUpdate {
  readVersion: number;
  state: string;
  version: number;
  phase: string;
  toMove: number | null;
  dealIndex: number;
  turnDeadline: Date | null;
  /** Untimed: null, and the clock's columns stay as they are. */
  clock: { turnStartedAt: Date | null; bankMs: number[]; timeouts: number[]; paused: { at: Date; deadline: Date } | null } | null;
  /** Set when a deal was scored. */
  totals: number[] | null;
  /** Set when the game ended. */
  winners: number[] | null;
  end: { seat: number; reason: string } | null;
}

export interface SeatInsert {
  seat: number;
  playerId: string;
  total: number | null;
  place: number | null;
  createdAt: Date;
}

export interface Standing {
  seat: number;
  total: number;
  place: number;
}

export interface DealInsert extends DealResultColumns {
  index: number;
  dealer: number;
  seed: string | null;
  deck: string[] | null;
  seedHash: string;
  /** Null: the time of the write. */
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface DealUpdate {
  index: number;
  columns: DealColumns;
}

export interface TrickRow {
  dealIndex: number;
  index: number;
  leader: number;
  cards: string[];
  winner: number;
}

export interface EntryRow extends LogEntry {
  deadline: Date | null;
  createdAt: Date | null;
}

/** Everything one commit writes. `gameInsert` and `gameUpdate`: exactly one is set. */
export interface GameProjection {
  gameId: string;
  gameInsert: GameRow | null;
  gameUpdate: GameUpdate | null;
  seats: readonly SeatInsert[];
  /** Places and totals at the game's end, for seats written before. */
  standings: readonly Standing[];
  deals: RowSet<DealInsert>;
  dealUpdate: DealUpdate | null;
  tricks: RowSet<TrickRow>;
  entries: RowSet<EntryRow>;
  record: string | null;
  outbox: OutboxJob | null;
  feed: readonly NewFeedEvent[];
  /** The version the game is at after the commit. */
  version: number;
}

/** The one projection of a game write. */
export function projectCommit(commit: GameCommit): GameProjection {
  switch (commit.type) {
    case 'start':
      return projectStart(commit);
    case 'move':
      return projectMove(commit);
    case 'archive':
      return projectArchive(commit);
    case 'presence':
      return projectPresence(commit);
  }
}

function projectPresence(c: GamePresenceCommit): GameProjection {
  const version = c.readVersion + 1;
  const deadline = c.clock?.deadline ?? null;
  const toMove = currentPlayer(c.state);
  // Back to a turn of their own: it begins again for the clock (its job re-keyed) and for the player.
  const resumed = c.entry.kind === 'back' && toMove !== null && toMove === c.entry.seat && deadline !== null;
  return {
    gameId: c.gameId,
    gameInsert: null,
    gameUpdate: {
      readVersion: c.readVersion,
      state: encodeState(c.state),
      version,
      phase: phase(c.state),
      toMove,
      dealIndex: dealIndex(c.state),
      turnDeadline: deadline,
      clock: c.clock ? { turnStartedAt: c.clock.turnStartedAt, bankMs: c.clock.bankMs, timeouts: c.clock.timeouts, paused: c.clock.paused ?? null } : null,
      totals: null,
      winners: null,
      end: null,
    },
    seats: [],
    standings: [],
    deals: [],
    dealUpdate: null,
    tricks: [],
    entries: [{ ...c.entry, seq: version, deadline, createdAt: c.now }],
    record: null,
    outbox: resumed && toMove !== null ? { gameId: c.gameId, seq: version, entries: [{ type: 'turnBegan', seat: toMove, playerId: c.seats[toMove], deadline: deadline.toISOString() }] } : null,
    feed: resumed && toMove !== null
      ? [{ gameId: c.gameId, lobbyId: null, seq: version, playerId: c.seats[toMove], type: 'yourTurn', payload: { gameId: c.gameId, seq: version, seat: toMove, deadline: deadline.toISOString(), preset: c.state.rules.preset } }]
      : [],
    version,
  };
}


/** What a new game's row takes from its commit as it is, whether started here or archived. */
function gameIdentity(c: GameStartCommit | GameArchiveCommit) {
  return { id: c.gameId, lobbyId: c.lobbyId, preset: c.preset, options: c.options, players: c.seats.length, firstDealer: c.firstDealer };
}
function projectStart(c: GameStartCommit): GameProjection {
  const state = c.first.state;
  const n = c.seats.length;
  const deadline = c.clock?.deadline ?? null;
  const entry: EntryRow = {
    ...dealEntry(1, c.first),
    deadline,
    createdAt: c.now,
  };
  return {
    gameId: c.gameId,
    gameInsert: {
      ...gameIdentity(c),
      status: 'active',
      version: 1,
      phase: phase(state),
      dealIndex: dealIndex(state),
      toMove: currentPlayer(state),
      state: encodeState(state),
      totals: Array.from({ length: n }, () => 0),
      winners: [],
      timeControl: c.clock?.control ?? null,
      turnDeadline: deadline,
      turnStartedAt: c.clock?.turnStartedAt ?? null,
      bankMs: c.clock?.bankMs ?? [],
      timeouts: c.clock?.timeouts ?? [],
      endSeat: null,
      endReason: null,
      rated: c.rated,
      ratedAt: null,
      importedBy: null,
      seatNames: [],
      seatBots: [],
      importHash: null,
      boardId: c.board?.id ?? null,
      boardSeed: c.board?.seed ?? null,
      revealHeld: c.board != null,
      createdAt: c.now,
      finishedAt: null,
    },
    gameUpdate: null,
    // The seats carry the game's created_at (their history index); one value for both.
    seats: c.seats.map((playerId, seat) => ({ seat, playerId, total: null, place: null, createdAt: c.now })),
    standings: [],
    deals: [dealOf(c.first, c.now)],
    dealUpdate: null,
    tricks: [],
    entries: [entry],
    record: null,
    // Without serverBots: the first turn is queued whoever holds it (the caller has not looked the seats up).
    outbox: { gameId: c.gameId, seq: 1, entries: followUpsOf(c.seats, c.first.events, state, deadline) },
    feed: [...gameStartedFeed(c.gameId, c.lobbyId, c.seats, c.preset), ...feedOf(c.gameId, 1, c.seats, c.first.events, state, c.clock, null)],
    version: 1,
  };
}

function projectMove(c: GameMoveCommit): GameProjection {
  const events = c.entries.flatMap((e) => e.events);
  let scored: Extract<GameEvent, { type: 'dealScored' }> | undefined;
  let gameOver: Extract<GameEvent, { type: 'gameOver' }> | undefined;
  const tricks: TrickRow[] = [];
  const moveDeal = c.entries[0].dealIndex;
  for (const e of events) {
    if (e.type === 'dealScored') scored = e;
    else if (e.type === 'gameOver') gameOver = e;
    else if (e.type === 'trickTaken') tricks.push(trickOf(moveDeal, e));
  }
  const end = gameEnd(c.state);
  const version = c.entries[c.entries.length - 1].seq;
  const deadline = c.clock?.deadline ?? null;
  // The last entry is the one that made it the next seat's turn: it carries the deadline.
  const last = c.entries.length - 1;
  const entries = c.entries.map((e, i): EntryRow => ({ ...e, deadline: i === last ? deadline : null, createdAt: c.now }));

  // The deal's facts as this move fixes them; most moves (a card) fix none.
  let facts = dealFactsOf(c.entries.filter((e) => e.dealIndex === moveDeal).flatMap((e) => e.events));
  if (facts?.scored) {
    // Scored: all of them again, from the result (the same values), for a deal begun before its
    // facts were written as they became known.
    const result = outcome(c.state).deals[moveDeal];
    if ('contract' in result && result.contract !== null) facts.contract = result.contract;
    if ('declarer' in result && result.declarer !== null) facts = { ...facts, declarer: result.declarer, bid: result.bid ?? undefined };
    if ('trump' in result && result.trump !== null) facts.trump = result.trump;
  }
  const places = gameOver ? placesOf(gameOver.totals, end?.seat ?? null) : null;
  const followUps = followUpsOf(c.seats, events, c.state, deadline, c.serverBots);
  return {
    gameId: c.gameId,
    gameInsert: null,
    gameUpdate: {
      readVersion: c.readVersion,
      state: encodeState(c.state),
      version,
      phase: phase(c.state),
      toMove: currentPlayer(c.state),
      dealIndex: dealIndex(c.state),
      turnDeadline: deadline,
      clock: c.clock ? { turnStartedAt: c.clock.turnStartedAt, bankMs: c.clock.bankMs, timeouts: c.clock.timeouts, paused: c.clock.paused ?? null } : null,
      totals: scored ? scored.totals : null,
      winners: gameOver ? gameOver.winners : null,
      end: end ? { seat: end.seat, reason: end.reason } : null,
    },
    seats: [],
    standings: gameOver && places ? gameOver.totals.map((total, seat) => ({ seat, total, place: places[seat] })) : [],
    deals: c.next ? [dealOf(c.next, null)] : [],
    dealUpdate: facts ? { index: moveDeal, columns: dealColumnsOf(facts) } : null,
    tricks,
    entries,
    record: null,
    outbox: followUps.length > 0 ? { gameId: c.gameId, seq: version, entries: followUps } : null,
    feed: feedOf(c.gameId, version, c.seats, events, c.state, c.clock, c.timedOut),
    version,
  };
}

function projectArchive(c: GameArchiveCommit): GameProjection {
  const deals: DealInsert[] = c.deals.map((d, index) => ({
    index,
    dealer: d.dealer,
    seed: d.seed,
    deck: d.deck,
    seedHash: d.seedHash,
    startedAt: d.startedAt,
    ...NO_DEAL_RESULT,
    finishedAt: null,
  }));
  const tricks: TrickRow[] = [];
  for (const e of c.entries) {
    // The same rule as a game played here: a deal's facts as its steps make them known.
    const facts = dealFactsOf(e.events);
    if (facts) {
      const { finished, ...columns } = dealColumnsOf(facts);
      const deal = Object.assign(deals[e.dealIndex], columns);
      if (finished) deal.finishedAt = e.createdAt ?? c.finishedAt;
    }
    for (const ev of e.events) if (ev.type === 'trickTaken') tricks.push(trickOf(e.dealIndex, ev));
  }
  const places = placesOf(c.totals, c.end?.seat ?? null);
  const version = c.entries.length;
  return {
    gameId: c.gameId,
    gameInsert: {
      ...gameIdentity(c),
      status: 'finished',
      version,
      phase: phase(c.state),
      dealIndex: dealIndex(c.state),
      toMove: currentPlayer(c.state),
      state: encodeState(c.state),
      totals: c.totals,
      winners: c.winners,
      timeControl: c.timeControl,
      turnDeadline: c.clock?.deadline ?? null,
      turnStartedAt: c.clock?.turnStartedAt ?? null,
      bankMs: c.clock?.bankMs ?? [],
      timeouts: c.clock?.timeouts ?? [],
      endSeat: c.end?.seat ?? null,
      endReason: c.end?.reason ?? null,
      rated: c.rated,
      ratedAt: c.ratedAt,
      importedBy: c.imported?.by ?? null,
      seatNames: c.imported?.seatNames ?? [],
      seatBots: c.imported?.seatBots ?? [],
      importHash: c.imported?.hash ?? null,
      boardId: null,
      boardSeed: null,
      revealHeld: false,
      createdAt: c.createdAt,
      finishedAt: c.finishedAt,
    },
    gameUpdate: null,
    seats: c.seats.flatMap((playerId, seat) =>
      playerId === null ? [] : [{ seat, playerId, total: c.totals[seat], place: places[seat], createdAt: c.createdAt }],
    ),
    standings: [],
    deals,
    dealUpdate: null,
    tricks,
    entries: c.entries,
    record: c.record,
    // A game written whole is over before anyone could follow it: nothing to queue, nobody to tell.
    outbox: null,
    feed: [],
    version,
  };
}

/** The log entry of a deal dealt by the system. */
export function dealEntry(seq: number, deal: NewDeal): LogEntry {
  return {
    seq,
    kind: 'deal',
    dealIndex: deal.index,
    seat: null,
    playerId: null,
    actor: 'system',
    cause: null,
    move: null,
    events: deal.events,
    idempotencyKey: null,
    requestHash: null,
    response: null,
  };
}

function dealOf(deal: NewDeal, startedAt: Date | null): DealInsert {
  return { index: deal.index, dealer: deal.dealer, seed: deal.seed, deck: null, seedHash: deal.seedHash, startedAt, ...NO_DEAL_RESULT, finishedAt: null };
}

function trickOf(deal: number, e: Extract<GameEvent, { type: 'trickTaken' }>): TrickRow {
  return { dealIndex: deal, index: e.trick, leader: e.leader, cards: e.cards.map(cardName), winner: e.winner };
}

/** The projection with its row sets as JSON text, to hand across a thread (the import's worker). */
export function packed(p: GameProjection): GameProjection {
  const text = <T>(rows: RowSet<T>) => (typeof rows === 'string' ? rows : JSON.stringify(rows));
  return { ...p, deals: text(p.deals), tricks: text(p.tricks), entries: text(p.entries) };
}
