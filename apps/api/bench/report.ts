// The report: a header saying what was measured where, three tables per level (moves, the bare
// commit floor, CPU per operation), the goal at 100 games, notes; and the same figures as JSON.
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import type { CommitStats } from './database.js';
import type { Options } from './options.js';
import type { LevelStats } from './players.js';

export interface LevelResult {
  concurrency: number;
  moves: LevelStats;
  commits: CommitStats;
  ratio: number;
}

/** Everything the report says besides the levels' figures. */
export interface RunInfo {
  options: Options;
  /** Date.now() at the start. */
  started: number;
  server: { mode: string; poolSize: number };
  database: { description: string };
  postgres: Record<string, string>;
  loadavgStart: number[];
  loadavgEnd: number[];
  setupSeconds: number;
}

export function fmt(x: number, digits = 1): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function tables(results: LevelResult[]): string {
  const moveRows = results.map((r) => {
    const m = r.moves;
    const errors = Object.entries(m.errors)
      .map(([code, n]) => `${code}:${n}`)
      .join(' ');
    return [
      String(r.concurrency),
      fmt(m.seconds, 1),
      String(m.moves),
      fmt(m.movesPerSecond, 0),
      fmt(m.latencyMs.p50, 2),
      fmt(m.latencyMs.p95, 2),
      fmt(m.latencyMs.p99, 2),
      fmt(m.latencyMs.max, 1),
      String(m.refreshes),
      String(m.gamesFinished),
      errors || '0',
    ];
  });
  const commitRows = results.map((r) => [
    String(r.concurrency),
    fmt(r.commits.commitsPerSecond, 0),
    fmt(r.commits.latencyMs.p50, 2),
    fmt(r.commits.latencyMs.p99, 2),
    fmt(r.moves.movesPerSecond, 0),
    fmt(r.ratio, 2),
    r.moves.postgres ? fmt(r.moves.postgres.xactsPerMove, 2) : '–',
    r.moves.postgres ? fmt(r.moves.postgres.tuplesInsertedPerMove, 2) : '–',
    r.moves.postgres ? fmt(r.moves.postgres.walBytesPerMove, 0) : '–',
  ]);
  const ms = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? '–' : fmt(x, digits));
  const cores = (perOp: number | null | undefined, rate: number) => (perOp === null || perOp === undefined ? '–' : fmt((perOp * rate) / 1000, 2));
  const cpuRows = results.map((r) => {
    const c = r.moves.cpuMsPerMove;
    const k = r.commits.cpuMsPerCommit;
    return [
      String(r.concurrency),
      ms(c?.server),
      ms(c?.serverSystem),
      cores(c?.server, r.moves.movesPerSecond),
      ms(c?.postgres),
      cores(c?.postgres, r.moves.movesPerSecond),
      ms(c?.client),
      ms(k?.postgres, 3),
      cores(k?.postgres, r.commits.commitsPerSecond),
    ];
  });
  return [
    'Moves (makeMove over GraphQL/HTTP, latency as the client sees it)',
    table(['games', 's', 'moves', 'moves/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'refreshes', 'finished', 'errors'], moveRows),
    '',
    'Bare commits (pg Pool, same pool size, N loops of INSERT one row + COMMIT) and the ratio',
    table(['loops', 'commits/s', 'p50 ms', 'p99 ms', 'moves/s', 'moves/commits', 'xacts/move', 'rows ins/move', 'WAL B/move'], commitRows),
    '',
    'CPU time per operation (ms) and cores busy, by process (/proc and process.cpuUsage; PostgreSQL: all its processes)',
    table(['games', 'server/move', 'of it sys', 'cores', 'pg/move', 'cores', 'client/move', 'pg/commit', 'cores'], cpuRows),
  ].join('\n');
}

/** The whole text report, as printed on stdout. */
export function report(run: RunInfo, results: LevelResult[]): string {
  const { options } = run;
  const maxLevel = Math.max(...options.levels);
  const header = [
    `Mizerka API benchmark — ${new Date(run.started).toISOString()}`,
    `server:   ${run.server.mode}; pool ${run.server.poolSize} connections; NODE_ENV=production, LOG_LEVEL=silent`,
    `database: ${run.database.description}`,
    `postgres: ${Object.entries(run.postgres)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
    `machine:  ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${run.loadavgStart.map((x) => x.toFixed(2)).join(' ')} at start, ${run.loadavgEnd.map((x) => x.toFixed(2)).join(' ')} at end; node ${process.version}`,
    `run:      preset ${options.preset}, ${options.thinkMs > 0 ? `think ${options.thinkMs} ms (±50%) between moves` : 'closed loop (no think time)'}, ` +
      `${options.warmup} s warm-up + ${options.seconds} s (≤ ${options.maxMoves} moves) per level, ` +
      `${options.commitSeconds} s of commits; ${maxLevel} games set up in ${fmt(run.setupSeconds, 1)} s`,
  ].join('\n');
  let text = `\n${header}\n\n${tables(results)}\n`;
  const at100 = results.find((r) => r.concurrency === 100);
  if (at100) {
    const half = at100.ratio >= 0.5;
    const p99 = at100.moves.latencyMs.p99 < 20;
    text +=
      `\nGoal at 100 games: moves/s ≥ ½ bare commits/s: ${half ? 'met' : 'NOT met'} (${fmt(at100.ratio, 2)}); ` +
      `p99 < 20 ms: ${p99 ? 'met' : 'NOT met'} (${fmt(at100.moves.latencyMs.p99, 2)} ms)\n`;
  }
  text +=
    '\nrefreshes: game(id) queries a seat made before moving when its own last view could not tell it its hand (not in moves/s).\n' +
    'xacts/move: PostgreSQL transactions committed per move (read-only statements count too), from pg_stat_database; approximate.\n' +
    (options.thinkMs > 0
      ? ''
      : 'Closed loop: each game waits only for its last answer, so latency ≈ games ÷ moves/s (Little’s law) once the server is saturated; --think MS adds players’ pauses.\n');
  return text;
}

/** The figures as JSON in `file`; returns its absolute path. */
export async function writeJson(file: string, run: RunInfo, results: LevelResult[]): Promise<string> {
  const path = resolve(file);
  const document = {
    startedAt: new Date(run.started).toISOString(),
    options: run.options,
    server: run.server.mode,
    poolSize: run.server.poolSize,
    database: run.database.description,
    postgres: run.postgres,
    machine: { cpus: cpus().length, loadavgStart: run.loadavgStart, loadavgEnd: run.loadavgEnd, node: process.version },
    setupSeconds: run.setupSeconds,
    levels: results,
  };
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`);
  return path;
}
