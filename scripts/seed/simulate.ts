// One seeded game, played with random legal moves through @mizerka/rules, turned into exactly the
// rows the server writes for a game played through its lobby and move path: the lobby and its
// seats, the game and its seats, one game_events entry per deal dealt and per move (and 'end' for
// a resignation or forfeit), the deals and their tricks. The deal and the clock come from the
// server's own functions (games/dealing.ts, games/time-control.ts); the game's rows are its
// archive commit's projection (games/game-commit.ts), loaded by COPY.
import { createHash } from 'node:crypto';
import {
  currentPlayer,
  dealIndex,
  endGame,
  gameEnd,
  legalMoves,
  makeRules,
  moveToJson,
  newGame,
  phase,
  placesOf,
  Xoshiro128,
  type EndReason,
  type GameEvent,
  type GameState,
  type Move,
  type Preset,
} from '@mizerka/rules';
import { applyInPlace } from '@mizerka/rules/fast';
import { dealFresh, type NewDeal } from '../../apps/api/src/games/dealing.js';
import { botMarksOf, buildRecord } from '../../apps/api/src/games/record.js';
import { clockAfter, startClock, type GameClock, type TimeControl } from '../../apps/api/src/games/time-control.js';
import { INVITE_ALPHABET, INVITE_CODE_LENGTH } from '../../apps/api/src/lobbies/invite-code.js';
import { jsonField, row, timeField } from '../../apps/api/src/database/copy-text.js';
import { dealEntry, projectCommit, type ActorKind, type ArchivedDeal, type ArchivedEntry, type GameArchiveCommit, type LogEntry } from '../../apps/api/src/games/game-commit.js';
import { GAME_COPY_COLUMNS, gameCommitCopy, type GameCopyRows } from '../../apps/api/src/games/game-commit.sql.js';

/** A player as the games are planned from: who, and how often they play. */
export interface SeedPlayer {
  id: string;
  bot: boolean;
  /** Relative share of the seats taken: a few play a lot, most a little. */
  weight: number;
  /** For the games' records. */
  name: string;
  botLevel: string | null;
}

/** The presets' shares: short games are the common ones (an evening has time for several). */
export const PRESET_MIX: readonly [Preset, number][] = [
  ['short', 0.4],
  ['short-4', 0.25],
  ['bidding', 0.08],
  ['bidding-4', 0.05],
  ['classic', 0.13],
  ['classic-4', 0.09],
];

/** What every game of a run shares. */
export interface SeedContext {
  seed: string;
  games: number;
  /** The games are created evenly over [from, until) (ms). */
  from: number;
  until: number;
  humans: SeedPlayer[];
  bots: SeedPlayer[];
  /** Cumulative weights of `humans`, for sampling. */
  cumulative: Float64Array;
}

export function seedContext(seed: string, games: number, from: number, until: number, players: SeedPlayer[]): SeedContext {
  const humans = players.filter((p) => !p.bot);
  const bots = players.filter((p) => p.bot);
  const cumulative = new Float64Array(humans.length);
  let sum = 0;
  humans.forEach((p, i) => (cumulative[i] = sum += p.weight));
  return { seed, games, from, until, humans, bots, cumulative };
}

/** A generator from a label: the same seed and label give the same numbers. */
export function rngOf(seed: string, label: string): Xoshiro128 {
  return Xoshiro128.fromSeed(createHash('sha256').update(`mizerka-seed:${seed}:${label}`).digest('hex').slice(0, 32));
}

export function hex32(rng: Xoshiro128): string {
  let out = '';
  for (let i = 0; i < 4; i++) out += rng.next().toString(16).padStart(8, '0');
  return out;
}

/** A version-4-shaped UUID from the generator (deterministic, unlike the database's default). */
export function uuidOf(rng: Xoshiro128): string {
  const h = hex32(rng);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function fraction(rng: Xoshiro128): number {
  return rng.next() / 2 ** 32;
}

/** Distinct for every game of a run: the index through a bijection of 0..31^8-1. */
function inviteCodeOf(index: number, offset: number): string {
  const space = INVITE_ALPHABET.length ** INVITE_CODE_LENGTH;
  // 1_000_003 is prime, so coprime with 31^8: multiplying by it permutes the codes.
  let x = Number((BigInt(index) * 1_000_003n + BigInt(offset)) % BigInt(space));
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) {
    code += INVITE_ALPHABET[x % INVITE_ALPHABET.length];
    x = Math.floor(x / INVITE_ALPHABET.length);
  }
  return code;
}

/** The rows of a batch of games, as COPY text per table. */
export class Rows implements GameCopyRows {
  lobbies: string[] = [];
  lobbySeats: string[] = [];
  games: string[] = [];
  gameSeats: string[] = [];
  gameEvents: string[] = [];
  deals: string[] = [];
  tricks: string[] = [];
  gameRecords: string[] = [];
  count = 0;
}

/** What ratings need of a finished game, computed later in finishing order. */
export interface FinishedGame {
  id: string;
  family: 'contract' | 'bidding';
  players: number;
  seats: string[];
  places: number[];
  finishedAt: number;
  /** Null when unrated. */
  ratedAt: number | null;
}

// Moves a game of each preset usually has, for placing a resignation somewhere inside it.
const TYPICAL_MOVES: Record<Preset, number> = { classic: 740, 'classic-4': 1000, short: 370, 'short-4': 500, bidding: 250, 'bidding-4': 300 };
const TIMED: TimeControl = { moveSeconds: 60, bankSeconds: 120, onTimeout: 'forfeit', maxTimeouts: 3 };

/** A random legal move for the seat to move. */
function randomMove(state: GameState, rng: Xoshiro128): Move {
  const legal = legalMoves(state)!;
  const pick = <T>(xs: readonly T[]): T => xs[rng.below(xs.length)];
  const some = <T>(xs: readonly T[], k: number): T[] => {
    const pool = [...xs];
    const out: T[] = [];
    for (let i = 0; i < k; i++) out.push(pool.splice(rng.below(pool.length), 1)[0]);
    return out;
  };
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', seat: legal.seat, contract: pick(legal.contracts) };
    case 'exchange':
      return { kind: 'exchange', seat: legal.seat, discards: some(legal.cards, rng.below(legal.maxDiscards + 1)) };
    case 'bid':
      return { kind: 'bid', seat: legal.seat, bid: pick(legal.bids) };
    case 'discard':
      return { kind: 'discard', seat: legal.seat, cards: some(legal.cards, legal.count) };
    case 'trump':
      return { kind: 'trump', seat: legal.seat, suit: pick(legal.suits) };
    case 'play':
      return { kind: 'play', seat: legal.seat, card: pick(legal.cards) };
  }
}

/** Plays game `index` of the run and appends its rows to `out`. */
export function seedGame(ctx: SeedContext, index: number, out: Rows): FinishedGame {
  const rng = rngOf(ctx.seed, `game:${index}`);
  let r = fraction(rng);
  const preset = (PRESET_MIX.find(([, share]) => (r -= share) < 0) ?? PRESET_MIX[0])[0];
  const made = makeRules(preset);
  if (!made.ok) throw new Error(made.error.message);
  const rules = made.value;
  const n = rules.players;

  // Who sits: people by how much they play, now and then a bot in one seat.
  const seats: SeedPlayer[] = [];
  while (seats.length < n) {
    const x = fraction(rng) * ctx.cumulative[ctx.cumulative.length - 1];
    let lo = 0;
    let hi = ctx.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ctx.cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    const p = ctx.humans[lo];
    if (!seats.includes(p)) seats.push(p);
  }
  if (ctx.bots.length > 0 && fraction(rng) < 0.08) seats[1 + rng.below(n - 1)] = ctx.bots[rng.below(ctx.bots.length)];
  const withBot = seats.some((p) => p.bot);
  const visibility = fraction(rng) < 0.75 ? 'public' : 'unlisted';
  // Public lobbies are rated by default; a table with a bot is a practice table.
  const rated = visibility === 'public' && !withBot;
  const control = fraction(rng) < 0.15 ? TIMED : null;
  const roll = fraction(rng);
  const endReason: EndReason | null = control && roll < 0.08 ? 'forfeit' : roll < 0.04 ? 'resigned' : null;
  const endAfter = endReason ? 1 + rng.below(TYPICAL_MOVES[preset]) : Infinity;
  const endSeat = rng.below(n);

  const gameId = uuidOf(rng);
  const lobbyId = uuidOf(rng);
  const createdAt = Math.floor(ctx.from + ((index + fraction(rng)) * (ctx.until - ctx.from)) / ctx.games);
  const firstDealer = rng.below(n);
  const ids = seats.map((p) => p.id);

  // The lobby: opened by seat 0, joined one by one, started when full (the game's creation).
  const opened = createdAt - (n - 1) * (5_000 + rng.below(60_000));
  const controlJson = control ? jsonField(control) : '\\N';
  out.lobbies.push(
    row([lobbyId, preset, jsonField(rules.options), String(n), visibility, inviteCodeOf(index, parseInt(ctx.seed.slice(0, 8), 16) || 7), ids[0], 'started', '\\N', controlJson, String(rated), timeField(opened), timeField(createdAt)]),
  );
  for (let seat = 0; seat < n; seat++) {
    const joined = seat === 0 ? opened : opened + Math.floor(((createdAt - opened) * seat) / (n - 1));
    out.lobbySeats.push(row([lobbyId, String(seat), ids[seat], timeField(joined)]));
  }

  // Seq 1: the first deal, written with the game (GamesService.startGame).
  let now = createdAt;
  const first: NewDeal = dealFresh(newGame(rules, firstDealer), hex32(rng));
  let state = first.state;
  let clock: GameClock | null = control ? startClock(control, n, currentPlayer(state), new Date(now)) : null;
  const entries: ArchivedEntry[] = [];
  const deals: ArchivedDeal[] = [];
  const entry = (e: Omit<LogEntry, 'seq' | 'idempotencyKey' | 'requestHash' | 'response'>, deadline: Date | null) =>
    entries.push({ ...e, seq: entries.length + 1, idempotencyKey: null, requestHash: null, response: null, deadline, createdAt: new Date(now) });
  const dealt = (deal: NewDeal) => {
    entry(dealEntry(entries.length + 1, deal), clock?.deadline ?? null);
    deals[deal.index] = { dealer: deal.dealer, seed: deal.seed, deck: null, seedHash: deal.seedHash, startedAt: new Date(now) };
  };
  dealt(first);
  // The record's moves, as the server reads them back: with their keys in the order the jsonb move column gives them.
  const recordMoves: { dealIndex: number; move: unknown }[] = [];

  /** One write: its entry and the next deal, the clock after it (as MovesService plans a move). */
  const write = (w: { by: number; timedOut: boolean; kind: string; deal: number; actor: ActorKind; cause: string | null; move: unknown; events: GameEvent[] }) => {
    const next = phase(state) === 'dealing' && !gameEnd(state) ? dealFresh(state, hex32(rng)) : null;
    if (next) state = next.state;
    if (clock) clock = clockAfter(clock, w.by, w.timedOut, phase(state) === 'over' ? null : currentPlayer(state), new Date(now));
    // Only the write's last entry carries the next turn's deadline.
    const { by, kind, deal, actor, cause, move, events } = w;
    entry({ kind, dealIndex: deal, seat: by, playerId: ids[by], actor, cause, move, events }, next ? null : (clock?.deadline ?? null));
    if (w.kind !== 'end') recordMoves.push({ dealIndex: w.deal, move: jsonbOrdered(w.move) });
    if (next) dealt(next);
    return w.events.find((e): e is Extract<GameEvent, { type: 'gameOver' }> => e.type === 'gameOver');
  };

  let moves = 0;
  let over: Extract<GameEvent, { type: 'gameOver' }> | undefined;
  while (!over) {
    const seat = currentPlayer(state)!;
    const deal = dealIndex(state);
    const events: GameEvent[] = [];
    if (endReason && moves >= endAfter) {
      // A forfeit comes when the seat to move runs out of time (MovesService.forfeit); a resignation is any player's.
      const forfeit = endReason === 'forfeit';
      const by = forfeit ? seat : endSeat;
      now = forfeit ? clock!.deadline!.getTime() : now + 2_000 + rng.below(20_000);
      const ended = endGame(state, { seat: by, reason: endReason });
      if (!ended.ok) throw new Error(`ending game ${index}: ${ended.error.rule}`);
      state = ended.value.state;
      events.push(...ended.value.events);
      const actor = forfeit ? 'system' : seats[by].bot ? 'bot' : 'player';
      over = write({ by, timedOut: forfeit, kind: 'end', deal, actor, cause: forfeit ? 'forfeit' : 'resigned', move: null, events });
      break;
    }
    const chosen = randomMove(state, rng);
    now += seats[seat].bot ? 300 + rng.below(700) : 1_500 + rng.below(10_000);
    const error = applyInPlace(state, chosen, events);
    if (error) throw new Error(`random move refused in game ${index}: ${error.rule}`);
    moves++;
    over = write({ by: seat, timedOut: false, kind: chosen.kind, deal, actor: seats[seat].bot ? 'bot' : 'player', cause: null, move: moveToJson(chosen), events });
  }

  const gameOver = over!;
  const end = gameEnd(state);
  const places = placesOf(gameOver.totals, end?.seat ?? null);
  const finishedAt = now;
  const ratedAt = rated ? finishedAt + 200 + rng.below(1_800) : null;
  // Its record, stored with it as the server's gameFinished consumer would (history/stored-records.ts).
  const record = buildRecord({
    preset,
    options: rules.options,
    firstDealer,
    endSeat: end?.seat ?? null,
    endReason: end?.reason ?? null,
    players: seats.map((p) => p.name),
    bots: botMarksOf(seats.map((p, seat) => ({ seat, player: { kind: p.bot ? 'bot' : 'human', botLevel: p.botLevel } })), n),
    deals: deals.map((d) => ({ seed: d.seed, deck: null })),
    moves: recordMoves,
  });
  // Written as the server writes a game: its archive commit, through the one projection.
  const commit: GameArchiveCommit = {
    type: 'archive',
    gameId,
    lobbyId,
    preset,
    options: rules.options as Record<string, unknown>,
    firstDealer,
    seats: ids,
    state,
    entries,
    deals,
    totals: gameOver.totals,
    winners: gameOver.winners,
    end,
    rated,
    ratedAt: ratedAt === null ? null : new Date(ratedAt),
    timeControl: control,
    clock,
    imported: null,
    record: JSON.stringify(record),
    createdAt: new Date(createdAt),
    finishedAt: new Date(finishedAt),
  };
  gameCommitCopy(projectCommit(commit), out);
  out.count++;
  return { id: gameId, family: rules.family, players: n, seats: ids, places, finishedAt, ratedAt };
}

/** Columns of each table in the order seedGame writes them. */
export const COLUMNS = {
  lobbies: 'lobbies (id, preset, options, players, visibility, invite_code, host_id, status, previous_game_id, time_control, rated, created_at, updated_at)',
  lobbySeats: 'lobby_seats (lobby_id, seat, player_id, joined_at)',
  ...GAME_COPY_COLUMNS,
} as const;

/** Parents before children, so that a loader with foreign keys checked finds every parent. */
export const TABLE_ORDER = ['lobbies', 'lobbySeats', 'games', 'gameSeats', 'deals', 'gameEvents', 'tricks', 'gameRecords'] as const;

/** A JSON value with its objects' keys in jsonb's order (shorter first, then by bytes), as a jsonb column returns it. */
export function jsonbOrdered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrdered);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return Object.fromEntries(keys.map((k) => [k, jsonbOrdered((value as Record<string, unknown>)[k])]));
}
