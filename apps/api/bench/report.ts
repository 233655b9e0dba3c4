// The report: a header saying what was measured where, three tables per level (moves, the bare
// commit floor, CPU per operation), the move path's goals, notes; and the same figures as JSON.
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import type { CommitStats } from './database.js';
import type { Options } from './options.js';
import type { LevelStats } from './players.js';
import type { WebhookStages, WebhookStats } from './webhook-receiver.js';

export interface LevelResult {
  concurrency: number;
  moves: LevelStats;
  commits: CommitStats;
  ratio: number;
  /** --correspondence: the same level on timed games whose players each have a webhook endpoint. */
  correspondence?: {
    moves: LevelStats;
    webhooks: WebhookStats;
    stages: WebhookStages;
    /** Seconds from the level's end to the last delivery's arrival, and what was still pending after the wait. */
    drainSeconds: number;
    pendingAfterDrain: number;
    /** Timed moves/s ÷ untimed moves/s. */
    ratio: number;
    /** Timed moves ÷ (the level's seconds + drainSeconds), ÷ untimed moves/s: the rate at which moves and their webhooks are both done. */
    sustainedRatio: number;
  };
  ws?: WsLevel;
}

/** --ws: the same level with every request of a seat over its own graphql-ws socket. */
export interface WsLevel {
  moves: LevelStats;
  sockets: number;
  /** Over sockets moves/s ÷ over HTTP moves/s. */
  ratio: number;
}

/** Everything the report says besides the levels' figures. */
export interface RunInfo {
  options: Options;
  /** Date.now() at the start. */
  started: number;
  server: { mode: string; poolSize: number; node: string };
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
  const timedRows = results.flatMap((r) => {
    const c = r.correspondence;
    if (!c) return [];
    const w = c.webhooks;
    return [
      [
        String(r.concurrency),
        fmt(r.moves.movesPerSecond, 0),
        fmt(c.moves.movesPerSecond, 0),
        fmt(c.ratio, 2),
        fmt(c.sustainedRatio, 2),
        fmt(r.moves.latencyMs.p99, 1),
        fmt(c.moves.latencyMs.p99, 1),
        ms(r.moves.cpuMsPerMove?.server),
        ms(c.moves.cpuMsPerMove?.server),
        ms(r.moves.cpuMsPerMove?.postgres),
        ms(c.moves.cpuMsPerMove?.postgres),
        String(w.received),
        fmt(w.perSecond, 0),
        fmt(w.lagMs.p50, 0),
        fmt(w.lagP90Ms, 0),
        fmt(w.lagMs.p99, 0),
        fmt(w.lagMs.max, 0),
        `${fmt(c.drainSeconds, 1)}/${c.pendingAfterDrain}`,
        `${fmt(c.stages.fanOutMs.p50, 0)}/${fmt(c.stages.fanOutMs.p99, 0)}`,
        `${fmt(c.stages.queueMs.p50, 0)}/${fmt(c.stages.queueMs.p99, 0)}`,
        Object.entries(c.moves.errors).map(([code, n]) => `${code}:${n}`).join(' ') || '0',
      ],
    ];
  });
  const correspondence =
    timedRows.length === 0
      ? []
      : [
          '',
          'Correspondence: untimed games vs timed games (a move clock on every game) whose players each have a webhook endpoint (all event types) at a receiver in this process',
          table(
            ['games', 'untimed moves/s', 'timed+hooks moves/s', 'ratio', 'with drain', 'p99 ms', 'p99 ms', 'server ms/move', 'timed', 'pg ms/move', 'timed', 'webhooks', '/s', 'lag p50 ms', 'p90', 'p99', 'max', 'drain s/left', 'fan-out p50/p99', 'queue p50/p99', 'errors'],
            timedRows,
          ),
        ];
  const wsRows = results.flatMap((r) => {
    const w = r.ws;
    if (!w) return [];
    return [
      [
        String(r.concurrency),
        String(w.sockets),
        fmt(r.moves.movesPerSecond, 0),
        fmt(w.moves.movesPerSecond, 0),
        fmt(w.ratio, 2),
        fmt(r.moves.latencyMs.p50, 2),
        fmt(w.moves.latencyMs.p50, 2),
        fmt(r.moves.latencyMs.p99, 2),
        fmt(w.moves.latencyMs.p99, 2),
        ms(r.moves.cpuMsPerMove?.server),
        ms(w.moves.cpuMsPerMove?.server),
        ms(r.moves.cpuMsPerMove?.client),
        ms(w.moves.cpuMsPerMove?.client),
        Object.entries(w.moves.errors).map(([code, n]) => `${code}:${n}`).join(' ') || '0',
      ],
    ];
  });
  const overSockets =
    wsRows.length === 0
      ? []
      : [
          '',
          'Moves over HTTP vs over each player’s graphql-ws socket (the same games, the same random players; refreshes go over the socket too)',
          table(['games', 'sockets', 'HTTP moves/s', 'ws moves/s', 'ratio', 'p50 ms', 'ws', 'p99 ms', 'ws', 'server ms/move', 'ws', 'client ms/move', 'ws', 'ws errors'], wsRows),
        ];
  return [
    'Moves (makeMove over GraphQL/HTTP, latency as the client sees it)',
    table(['games', 's', 'moves', 'moves/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'refreshes', 'finished', 'errors'], moveRows),
    '',
    'Bare commits (pg Pool, same pool size, N loops of INSERT one row + COMMIT) and the ratio',
    table(['loops', 'commits/s', 'p50 ms', 'p99 ms', 'moves/s', 'moves/commits', 'xacts/move', 'rows ins/move', 'WAL B/move'], commitRows),
    '',
    'CPU time per operation (ms) and cores busy, by process (/proc and process.cpuUsage; PostgreSQL: all its processes)',
    table(['games', 'server/move', 'of it sys', 'cores', 'pg/move', 'cores', 'client/move', 'pg/commit', 'cores'], cpuRows),
    ...correspondence,
    ...overSockets,
  ].join('\n');
}

/** Server CPU per move (ms) at most, over HTTP and over sockets; PostgreSQL CPU per move at most. */
export const SERVER_MS_PER_MOVE_GOAL = 1.0;
export const POSTGRES_MS_PER_MOVE_GOAL = 0.6;
/** Moves/s at 100 games ÷ bare commits/s of the same level, at least. */
export const COMMIT_RATIO_GOAL = 0.3;
/** With players' pauses (--think), at 100 games: latency (ms) under these. */
export const THINK_P50_GOAL_MS = 5;
export const THINK_P99_GOAL_MS = 15;

/** The move path's goals, each met or not with its figure: the closed-loop ones, or with --think the latency ones. */
export function goals(results: LevelResult[], thinkMs: number, node: string): string {
  const verdict = (ok: boolean | null, figure: string) => `${ok === null ? 'not measured' : ok ? 'met' : 'NOT met'} (${figure})`;
  const under = (x: number | null | undefined, goal: number) => (x === null || x === undefined ? null : x <= goal);
  const lines: string[] = [];
  const at100 = results.find((r) => r.concurrency === 100);
  if (thinkMs > 0) {
    if (at100) {
      const { p50, p99 } = at100.moves.latencyMs;
      lines.push(
        `at 100 games, think ${thinkMs} ms: p50 < ${THINK_P50_GOAL_MS} ms: ${verdict(p50 < THINK_P50_GOAL_MS, `${fmt(p50, 2)} ms`)}; ` +
          `p99 < ${THINK_P99_GOAL_MS} ms: ${verdict(p99 < THINK_P99_GOAL_MS, `${fmt(p99, 2)} ms`)}`,
      );
    }
  } else {
    for (const r of results) {
      const c = r.moves.cpuMsPerMove;
      const ws = r.ws?.moves.cpuMsPerMove;
      lines.push(
        `at ${r.concurrency} games: server CPU/move ≤ ${fmt(SERVER_MS_PER_MOVE_GOAL)} ms: ${verdict(under(c?.server, SERVER_MS_PER_MOVE_GOAL), `${ms(c?.server)} ms`)}` +
          (r.ws ? `, over sockets ${verdict(under(ws?.server, SERVER_MS_PER_MOVE_GOAL), `${ms(ws?.server)} ms`)}` : '') +
          `; PostgreSQL CPU/move ≤ ${fmt(POSTGRES_MS_PER_MOVE_GOAL)} ms: ${verdict(under(c?.postgres, POSTGRES_MS_PER_MOVE_GOAL), `${ms(c?.postgres)} ms`)}`,
      );
    }
    const at10 = results.find((r) => r.concurrency === 10);
    if (at10 && at100) {
      const rate = at100.moves.movesPerSecond >= at10.moves.movesPerSecond;
      lines.push(`moves/s at 100 games ≥ at 10: ${verdict(rate, `${fmt(at100.moves.movesPerSecond, 0)} vs ${fmt(at10.moves.movesPerSecond, 0)}`)}`);
    }
    if (at100) lines.push(`at 100 games, moves/s ≥ ${COMMIT_RATIO_GOAL} × bare commits/s: ${verdict(at100.ratio >= COMMIT_RATIO_GOAL, fmt(at100.ratio, 2))}`);
  }
  return lines.length === 0 ? '' : `\nGoals (the server on node ${node}):\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

/** A CPU time in ms, or – when it was not measured. */
function ms(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined ? '–' : fmt(x, digits);
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
      `${options.commitSeconds} s of commits; ${maxLevel} games set up in ${fmt(run.setupSeconds, 1)} s; ` +
      `makeMove selects ${options.selection === 'full' ? 'the whole seat view (--selection full)' : 'only what choosing the next move reads (--selection player)'}`,
  ].join('\n');
  let text = `\n${header}\n\n${tables(results)}\n`;
  text += goals(results, options.thinkMs, run.server.node);
  for (const r of results) {
    const c = r.correspondence;
    if (!c) continue;
    text +=
      `\nCorrespondence at ${r.concurrency} games: timed+webhooks moves/s within 10 % of untimed: ${c.ratio >= 0.9 ? 'met' : 'NOT met'} (${fmt(c.ratio, 2)}), ` +
      `counting the time until their webhooks were delivered: ${c.sustainedRatio >= 0.9 ? 'met' : 'NOT met'} (${fmt(c.sustainedRatio, 2)}); ` +
      `${c.webhooks.received} webhooks (${Object.entries(c.webhooks.byType).map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}), duplicates ${c.webhooks.duplicates}`;
  }
  if (results.some((r) => r.correspondence)) {
    text +=
      `\nWebhook lag: arrival at the receiver − the event's time (the body's timestamp: its feed row's created_at, the start of the move's transaction); ` +
      `deliveries of events in the measured window, received until the queue was drained (drain s/left: from the level's end to the last arrival, deliveries still pending after the wait); ` +
      `/s: deliveries that arrived during the window, per second; with drain: timed moves ÷ (window + drain) ÷ untimed moves/s; ` +
      `fan-out: feed row → delivery row, queue: delivery row → first attempt (ms, from webhook_deliveries and webhook_attempts). ` +
      `Clock: ${options.clockSeconds} s per move, longer than the run: no time-out.\n`;
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
