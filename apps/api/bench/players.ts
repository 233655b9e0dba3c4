// The load generator: N games, each a closed loop (one request in flight per game) in which the
// seat to move makes a legal move with makeMove, chosen by the shared game client's random player
// from the views the API returned. A move is one request: the move result's `game` view is the
// mover's; the next seat reuses its own last view (its hand) with the public part of the latest
// one, and asks game(id) first (a "refresh", counted apart) only when it cannot know its hand.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  chooseMove,
  createLobby,
  data,
  errorCode,
  gameView,
  joinLobby,
  makeMove,
  MOVE_RESULT_FIELDS,
  MOVE_RESULT_PLAYER_FIELDS,
  playAgain,
  register,
  seededChance,
  type Chance,
  type CreateLobbyInput,
  type GqlResult,
  type GraphQLTransport,
  type LegalMovesView,
  type MoveInput,
  type MoveResult,
  type SeatView,
} from './game-client/index.js';
import { interrupted } from './lifecycle.js';
import { counterDelta, cpuPerOp, summarise, type CpuPerOp, type LatencySummary, type Probe, type Probes } from './measure.js';

export interface Game {
  index: number;
  id: string;
  /** Token per seat. */
  tokens: string[];
  version: number;
  finished: boolean;
  /** The most recent view returned for any seat: its public part is current. */
  latest: SeatView;
  /** Each seat's own last view: its hand as of then. */
  own: (SeatView | null)[];
  chance: Chance;
  played: number;
  /**
   * With a router (several instances): the version each instance's game-state cache holds for
   * this game, as its code keeps it (the state it last read or wrote on a move).
   */
  cachedAt?: Map<number, number>;
}

/** Several instances behind a load balancer: which one takes the next request. */
export interface Router {
  pick(): { client: GraphQLTransport; instance: number };
  /** A move through `instance` took the game from version `from` to `to` (log entries from + 1 … to). */
  moved?(gameId: string, from: number, to: number, instance: number): void;
}

/** What each instance's game-state cache held when a move reached it (modelled on the client side). */
export interface CacheModel {
  /** The instance held the version the move was made at: no read. */
  hits: number;
  /** It held an older version (another instance moved since): a read, as without the cache. */
  stale: number;
  /** It held nothing for the game. */
  misses: number;
}

// ---------------------------------------------------------------------------------------------
// How a seat picks its move.

function suitOf(card: string): string {
  return card.slice(-1);
}

/**
 * What the seat to move may do, as a `legalMoves` offer: the view's own when the latest view is
 * that seat's, else worked out from the public part of the latest view and the seat's own last
 * view. Null when the seat must look at the table first (bidding, discard, trump, a fresh deal).
 */
function offerFor(game: Game): LegalMovesView | null {
  const latest = game.latest;
  const seat = latest.toMove;
  if (seat === null) return null;
  if (latest.viewer === seat && latest.legalMoves) return latest.legalMoves;
  const offer = { kind: '', seat, contracts: null, cards: null, maxDiscards: null, count: null, bids: null, suits: null };
  switch (latest.phase) {
    case 'contract': {
      const left = latest.contractsLeft[seat];
      return left && left.length > 0 ? { ...offer, kind: 'contract', contracts: left } : null;
    }
    case 'exchange':
      // Exchanging no card is always legal; the seat learns its full hand from the result.
      return { ...offer, kind: 'exchange', cards: [], maxDiscards: 0 };
    case 'play': {
      const mine = game.own[seat];
      // The hand is the seat's own, as of its last view: valid for this deal once the contract is chosen.
      if (!mine || mine.deal !== latest.deal || mine.phase === 'contract' || !mine.hand || mine.hand.length === 0) return null;
      const trick = latest.currentTrick;
      const led = trick && trick.winner === null && trick.cards.length > 0 ? suitOf(trick.cards[0].card) : null;
      const following = led ? mine.hand.filter((card) => suitOf(card) === led) : [];
      return { ...offer, kind: 'play', cards: following.length > 0 ? following : mine.hand };
    }
    default:
      return null; // bidding, discard, trump: ask the table
  }
}

/** A legal move for the seat to move, or null when that seat must look at the table first. */
function nextMove(game: Game): MoveInput | null {
  const offer = offerFor(game);
  return offer === null ? null : chooseMove(offer, game.chance);
}

// ---------------------------------------------------------------------------------------------
// Setting up: players, lobbies filled, games started.

async function forEachLimited<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !interrupted()) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (interrupted()) throw new Error('interrupted');
}

async function refresh(client: GraphQLTransport, game: Game, seat: number): Promise<string | null> {
  const response = await gameView(client, game.id, game.tokens[seat]);
  const code = errorCode(response);
  if (code !== undefined || !response.data) return code ?? 'NO_DATA';
  const { view, version, status } = response.data.game;
  game.latest = view;
  game.own[seat] = view;
  game.version = version;
  game.finished = status === 'finished';
  return null;
}

async function startGame(client: GraphQLTransport, game: Game, gameId: string): Promise<void> {
  game.id = gameId;
  game.version = 0;
  game.finished = false;
  game.own = game.tokens.map(() => null);
  game.cachedAt = undefined;
  const code = await refresh(client, game, 0);
  if (code !== null) throw new Error(`game(${gameId}) failed: ${code}`);
}

/**
 * `count` games of `preset`, each with its players registered, seated through a lobby and started;
 * with `timeControl`, each lobby sets that move clock.
 */
export async function setUpGames(
  client: GraphQLTransport,
  count: number,
  preset: string,
  seed: number,
  timeControl?: CreateLobbyInput['timeControl'],
): Promise<Game[]> {
  const tag = randomBytes(3).toString('hex');
  const games: Game[] = Array.from({ length: count }, (_, index) => ({
    index,
    id: '',
    tokens: [],
    version: 0,
    finished: false,
    latest: null as unknown as SeatView,
    own: [],
    chance: seededChance(`api-bench:${seed}:${index}`),
    played: 0,
  }));
  await forEachLimited(games, 32, async (game) => {
    const newPlayer = async (seat: number) => data(await register(client, `b${tag}_${game.index}_${seat}`), 'register').token;
    const host = await newPlayer(0);
    const lobby = data(await createLobby(client, host, { preset, visibility: 'unlisted', ...(timeControl ? { timeControl } : {}) }), 'createLobby');
    game.tokens = [host];
    let gameId: string | null = null;
    for (let seat = 1; seat < lobby.players; seat++) {
      const token = await newPlayer(seat);
      game.tokens.push(token);
      gameId = data(await joinLobby(client, token, { inviteCode: lobby.inviteCode }), 'joinLobby').gameId;
    }
    if (!gameId) throw new Error(`lobby ${lobby.id} is full but has no game`);
    await startGame(client, game, gameId);
  });
  return games;
}

// ---------------------------------------------------------------------------------------------
// One level: N games played at once.

export interface LevelStats {
  games: number;
  seconds: number;
  moves: number;
  movesPerSecond: number;
  latencyMs: LatencySummary;
  errors: Record<string, number>;
  refreshes: number;
  refreshP50Ms: number;
  gamesFinished: number;
  /** CPU time per move by process, during the measured window (all requests, refreshes included). */
  cpuMsPerMove: CpuPerOp | null;
  postgres: { xactsPerMove: number; tuplesInsertedPerMove: number; tuplesUpdatedPerMove: number; walBytesPerMove: number; walRecordsPerMove: number } | null;
  /** With a router: the instances' game-state caches as a move found them. */
  cache?: CacheModel;
}

export interface LevelTiming {
  warmup: number;
  seconds: number;
  maxMoves: number;
  /** Mean pause between a game's moves (ms), ±50 %; 0: closed loop. */
  thinkMs: number;
  /** Moves sent without `expectedVersion` (the server decides on the state it knows). */
  withoutExpectedVersion?: boolean;
  /** What makeMove selects: `full` the table as a client draws it, `player` only what choosing the next move reads. */
  selection?: 'full' | 'player';
}

export async function runMoveLevel(client: GraphQLTransport, games: Game[], timing: LevelTiming, probes: Probes, router?: Router): Promise<LevelStats> {
  let measuring = timing.warmup === 0;
  let stopped = false;
  const latencies: number[] = [];
  const refreshLatencies: number[] = [];
  const errors: Record<string, number> = {};
  let moves = 0;
  let refreshes = 0;
  let gamesFinished = 0;
  const cache: CacheModel = { hits: 0, stale: 0, misses: 0 };
  let startedAt = performance.now();
  let stoppedAt = 0;
  let before: Promise<Probe> | null = null;
  let after: Promise<Probe> | null = null;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    stoppedAt = performance.now();
    after = probes.take();
  };
  const countError = (code: string) => {
    if (measuring && !stopped) errors[code] = (errors[code] ?? 0) + 1;
  };

  const loop = async (game: Game) => {
    while (!stopped && !interrupted()) {
      if (game.finished || game.latest.toMove === null) {
        // A finished game: its players play again (not measured).
        const again = data(await playAgain(client, game.tokens[0], game.id), 'playAgain');
        if (measuring && !stopped) gamesFinished++;
        await startGame(client, game, again.gameId!);
        continue;
      }
      const seat = game.latest.toMove;
      const input = nextMove(game);
      if (input === null) {
        const t0 = performance.now();
        const code = await refresh(client, game, seat);
        if (measuring && !stopped) {
          refreshes++;
          refreshLatencies.push(performance.now() - t0);
        }
        if (code !== null) countError(`refresh:${code}`);
        continue;
      }
      const routed = router?.pick();
      const t0 = performance.now();
      let response: GqlResult<{ makeMove: MoveResult }>;
      try {
        response = await makeMove(
          routed?.client ?? client,
          game.tokens[seat],
          { gameId: game.id, ...(timing.withoutExpectedVersion ? {} : { expectedVersion: game.version }), ...input },
          timing.selection === 'player' ? MOVE_RESULT_PLAYER_FIELDS : MOVE_RESULT_FIELDS,
        );
      } catch (error) {
        countError(`NETWORK:${(error as NodeJS.ErrnoException).code ?? 'error'}`);
        await new Promise((done) => setTimeout(done, 50));
        continue;
      }
      const elapsed = performance.now() - t0;
      const code = errorCode(response);
      if (code !== undefined || !response.data) {
        countError(code ?? 'NO_DATA');
        if (routed) game.cachedAt?.delete(routed.instance);
        // Look at the table again before the next try.
        game.own[seat] = null;
        const again = await refresh(client, game, seat);
        if (again !== null) countError(`refresh:${again}`);
        continue;
      }
      const result = response.data.makeMove;
      if (routed) {
        const cachedAt = (game.cachedAt ??= new Map());
        const held = cachedAt.get(routed.instance);
        if (measuring && !stopped) {
          if (held === undefined) cache.misses++;
          else if (held === game.version) cache.hits++;
          else cache.stale++;
        }
        cachedAt.set(routed.instance, result.version);
        router!.moved?.(game.id, game.version, result.version, routed.instance);
      }
      game.version = result.version;
      game.finished = result.status === 'finished';
      game.latest = result.game;
      if (result.game.viewer !== null) game.own[result.game.viewer] = result.game;
      game.played++;
      if (measuring && !stopped) {
        moves++;
        latencies.push(elapsed);
        if (moves >= timing.maxMoves) stop();
      }
      if (timing.thinkMs > 0 && !stopped) {
        // A player thinking: uniform in [0.5, 1.5] × the mean.
        await new Promise((done) => setTimeout(done, timing.thinkMs * (0.5 + game.chance(1001) / 1000)));
      }
    }
  };

  if (measuring) before = probes.take();
  const warmupTimer = setTimeout(() => {
    measuring = true;
    startedAt = performance.now();
    before = probes.take();
  }, timing.warmup * 1000);
  const stopTimer = setTimeout(stop, (timing.warmup + timing.seconds) * 1000);
  try {
    await Promise.all(games.map(loop));
  } finally {
    clearTimeout(warmupTimer);
    clearTimeout(stopTimer);
    stop();
  }
  // Set from timers and callbacks, which TypeScript's narrowing does not follow.
  const first = await (before as Promise<Probe> | null);
  const last = await (after as Promise<Probe> | null);
  const seconds = (stoppedAt - startedAt) / 1000;
  const delta = first?.counters && last?.counters ? counterDelta(first.counters, last.counters) : null;
  const per = (x: number) => (moves > 0 ? x / moves : NaN);
  return {
    games: games.length,
    seconds,
    moves,
    movesPerSecond: moves / seconds,
    latencyMs: summarise(latencies),
    errors,
    refreshes,
    refreshP50Ms: summarise(refreshLatencies).p50,
    gamesFinished,
    cpuMsPerMove: first && last ? cpuPerOp(first, last, moves) : null,
    postgres: delta
      ? {
          xactsPerMove: per(delta.xactCommit),
          tuplesInsertedPerMove: per(delta.tupInserted),
          tuplesUpdatedPerMove: per(delta.tupUpdated),
          walBytesPerMove: per(delta.walBytes),
          walRecordsPerMove: per(delta.walRecords),
        }
      : null,
    ...(router ? { cache } : {}),
  };
}
