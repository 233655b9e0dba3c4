// What a level measures besides its own operations: latency summaries, and probes of CPU time
// (server, PostgreSQL, this process) and PostgreSQL's counters taken at a window's two ends.

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function summarise(latencies: number[]): LatencySummary {
  const sorted = Float64Array.from(latencies).sort();
  const mean = latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : NaN;
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    mean,
  };
}

/** PostgreSQL's cumulative counters for the benchmark's database (pg_stat_database, pg_stat_wal). */
export interface PgCounters {
  xactCommit: number;
  tupInserted: number;
  tupUpdated: number;
  tupFetched: number;
  walRecords: number;
  walBytes: number;
  walFpi: number;
}

export function counterDelta(a: PgCounters, b: PgCounters): PgCounters {
  return {
    xactCommit: b.xactCommit - a.xactCommit,
    tupInserted: b.tupInserted - a.tupInserted,
    tupUpdated: b.tupUpdated - a.tupUpdated,
    tupFetched: b.tupFetched - a.tupFetched,
    walRecords: b.walRecords - a.walRecords,
    walBytes: b.walBytes - a.walBytes,
    walFpi: b.walFpi - a.walFpi,
  };
}

export interface Probe {
  counters: PgCounters | null;
  serverCpuMs: number | null;
  serverSystemMs: number | null;
  postgresCpuMs: number | null;
  clientCpuMs: number;
}

export interface Probes {
  take(): Promise<Probe>;
}

export interface ProbeSources {
  /** PostgreSQL's counters now, or null when they cannot be read. */
  counters(): Promise<PgCounters | null>;
  /** The server process's CPU time so far (ms) and its system part; null when unknown. */
  serverCpu(): Promise<{ total: number; system: number } | null>;
  /** PostgreSQL's CPU time so far (ms), all its processes; null when unknown. */
  postgresCpu(): number | null;
}

export function makeProbes(sources: ProbeSources): Probes {
  return {
    async take() {
      const [counters, serverCpu] = await Promise.all([sources.counters(), sources.serverCpu()]);
      const usage = process.cpuUsage();
      return {
        counters,
        serverCpuMs: serverCpu?.total ?? null,
        serverSystemMs: serverCpu?.system ?? null,
        postgresCpuMs: sources.postgresCpu(),
        clientCpuMs: (usage.user + usage.system) / 1000,
      };
    },
  };
}

/** CPU per operation (ms) between two probes, by process; null where unknown. */
export interface CpuPerOp {
  server: number | null;
  /** The kernel's part of `server` (system time: sockets, mostly). */
  serverSystem: number | null;
  postgres: number | null;
  client: number;
}

export function cpuPerOp(a: Probe, b: Probe, ops: number): CpuPerOp {
  const per = (x: number | null, y: number | null) => (x === null || y === null || ops === 0 ? null : (y - x) / ops);
  return {
    server: per(a.serverCpuMs, b.serverCpuMs),
    serverSystem: per(a.serverSystemMs, b.serverSystemMs),
    postgres: per(a.postgresCpuMs, b.postgresCpuMs),
    client: ops === 0 ? NaN : (b.clientCpuMs - a.clientCpuMs) / ops,
  };
}
