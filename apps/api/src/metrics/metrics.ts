import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics. One registry per process, as Prometheus scrapes a process;
 * several applications in one process (the tests run two) share it instead of registering the
 * same names twice. Default metrics include event-loop lag, heap and GC.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const movesTotal = new Counter({
  name: 'mizerka_moves_total',
  help: 'Moves, resignations and forfeits submitted, by actor and outcome (accepted, replayed, or the error code)',
  labelNames: ['actor', 'outcome'] as const,
  registers: [registry],
});

export const moveRetries = new Counter({
  name: 'mizerka_move_retries_total',
  help: 'Moves and resignations without an expected version decided again after losing the version race, by actor',
  labelNames: ['actor'] as const,
  registers: [registry],
});

export const moveSeconds = new Histogram({
  name: 'mizerka_move_seconds',
  help: 'Time to decide and write an accepted move, from the service receiving it to its commit',
  buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5],
  registers: [registry],
});

export const botThinkSeconds = new Histogram({
  name: 'mizerka_bot_think_seconds',
  help: "A server bot's time to choose a move, by the level that answered",
  labelNames: ['level'] as const,
  buckets: [0.001, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 1, 2, 5],
  registers: [registry],
});

export const errorsTotal = new Counter({
  name: 'mizerka_errors_total',
  help: 'Errors answered, by code of the one vocabulary and by surface (graphql, rest)',
  labelNames: ['code', 'surface'] as const,
  registers: [registry],
});

/** Pools whose use the gauges below report (the Prisma pool of each application in the process). */
const pools = new Set<{ totalCount: number; idleCount: number; waitingCount: number }>();

export function watchPool(pool: { totalCount: number; idleCount: number; waitingCount: number }): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

const sum = (pick: (pool: { totalCount: number; idleCount: number; waitingCount: number }) => number) =>
  [...pools].reduce((total, pool) => total + pick(pool), 0);

new Gauge({
  name: 'mizerka_db_pool_connections',
  help: 'Database connections open, by state (busy, idle)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.set({ state: 'busy' }, sum((p) => p.totalCount - p.idleCount));
    this.set({ state: 'idle' }, sum((p) => p.idleCount));
  },
});

new Gauge({
  name: 'mizerka_db_pool_waiting',
  help: 'Queries waiting for a database connection',
  registers: [registry],
  collect() {
    this.set(sum((p) => p.waitingCount));
  },
});

/** The move path's own pools (Postgres.js, which keeps no count of its connections to read). */
const hotPools = new Set<{ readonly inFlight: number }>();

export function watchHotPool(pool: { readonly inFlight: number }): () => void {
  hotPools.add(pool);
  return () => hotPools.delete(pool);
}

new Gauge({
  name: 'mizerka_db_hot_statements_in_flight',
  help: "Statements sent on the move path's own pool and not yet answered (past its DATABASE_POOL_SIZE connections they queue)",
  registers: [registry],
  collect() {
    this.set([...hotPools].reduce((total, pool) => total + pool.inFlight, 0));
  },
});

/** What the socket gauges count: the live connections of each application in the process. */
interface LiveSource {
  sockets(): number;
  subscriptions(): number;
}
const live = new Set<LiveSource>();

export function watchLive(source: LiveSource): () => void {
  live.add(source);
  return () => live.delete(source);
}

new Gauge({
  name: 'mizerka_open_sockets',
  help: 'GraphQL WebSocket connections open and signed in',
  registers: [registry],
  collect() {
    this.set([...live].reduce((n, source) => n + source.sockets(), 0));
  },
});

new Gauge({
  name: 'mizerka_open_subscriptions',
  help: 'GraphQL subscriptions running on those sockets',
  registers: [registry],
  collect() {
    this.set([...live].reduce((n, source) => n + source.subscriptions(), 0));
  },
});

export const liveTailReads = new Counter({
  name: 'mizerka_live_tail_reads_total',
  help: "Shared reads of the live tails (one statement each, for every follower of a game or player on the instance), by tail (game, feed) and whether they found anything (found, empty)",
  labelNames: ['tail', 'result'] as const,
  registers: [registry],
});

/** What the live-tail gauges count: the LiveTails of each application in the process. */
interface TailSource {
  readonly name: string;
  /** Keys (games, players) with a tail running. */
  tails(): number;
  /** Streams following them, each past its start. */
  following(): number;
}
const tails = new Set<TailSource>();

export function watchTails(source: TailSource): () => void {
  tails.add(source);
  return () => tails.delete(source);
}

const byTail = (gauge: Gauge<'tail'>, pick: (source: TailSource) => number) => {
  gauge.reset();
  for (const source of tails) gauge.inc({ tail: source.name }, pick(source));
};

new Gauge({
  name: 'mizerka_live_tails',
  help: 'Games and players with a live tail on this instance (one shared read per new batch, for all their followers), by tail (game, feed)',
  labelNames: ['tail'] as const,
  registers: [registry],
  collect() {
    byTail(this, (source) => source.tails());
  },
});

new Gauge({
  name: 'mizerka_live_tail_followers',
  help: 'Streams (subscriptions, server-sent event streams) following a live tail, once they know where they start, by tail (game, feed)',
  labelNames: ['tail'] as const,
  registers: [registry],
  collect() {
    byTail(this, (source) => source.following());
  },
});
