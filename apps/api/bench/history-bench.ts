/**
 * npm run bench:history — the history surfaces on a seeded database (`npm run db:seed`): a
 * player's first page and a deep page of games, a filtered page (preset + date range + opponent),
 * a game's full history (its event-log pages and its score sheet), a profile and statistics, a
 * leaderboard page, each by `--clients` closed loops for `--seconds`; then exports of `--export`
 * records as NDJSON (records/s); then EXPLAIN (ANALYZE, BUFFERS) of each query's SQL, built by the
 * same exported functions the server runs. The server runs in its own process (server.ts) on the
 * seeded database as it is: nothing is written to it. A script that prints figures, not a test.
 */
import { performance } from 'node:perf_hooks';
import { loadavg, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { encodeCursor } from '../src/common/paging.js';
import { gamesExportSql, gamesPageSql, type GamesQuery } from '../src/history/history.sql.js';
import { contractStatsSql, presetRecordsSql, profileSql, recentGamesSql } from '../src/profiles/profiles.sql.js';
import { leaderboardSql, playerRatingsSql } from '../src/ratings/ratings.sql.js';
import { gameTricksSql } from '../src/scoring/scoring.sql.js';
import { postgresSettings } from './database.js';
import { cleanUp, interrupted, log, onCleanUp, stopOnSignals } from './lifecycle.js';
import { summarise, type LatencySummary } from './measure.js';
import { fmt } from './report.js';
import { startServer } from './server.js';

const USAGE = `npm run bench:history -- [options]

The history API on a seeded database (npm run db:seed), 10 concurrent clients per query kind.

  --database-url URL   the seeded database (default: $HISTORY_DATABASE_URL, else
                       postgresql://postgres@127.0.0.1:5432/mizerka_history); only read
  --clients N          concurrent clients per query kind (default 10)
  --seconds S          measured seconds per query kind (default 10)
  --warmup S           seconds before measuring, per query kind (default 2)
  --export N           records per export (default 1000)
  --exports N          exports run, one after another (default 5)
  --player NAME        whose history (default: the human player with the most games)
  --explain-only       only print the query plans
  -h, --help           print this and exit
`;

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    clients: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    export: { type: 'string', default: '1000' },
    exports: { type: 'string', default: '5' },
    player: { type: 'string' },
    'explain-only': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
function count(name: string, raw: string, min: number): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) {
    process.stderr.write(`history-bench: --${name} needs a number ≥ ${min}, not ${JSON.stringify(raw)}\n`);
    process.exit(2);
  }
  return n;
}
const options = {
  url: values['database-url'] ?? process.env.HISTORY_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mizerka_history',
  clients: Math.round(count('clients', values.clients, 1)),
  seconds: count('seconds', values.seconds, 1),
  warmup: count('warmup', values.warmup, 0),
  exportLimit: Math.round(count('export', values.export, 1)),
  exports: Math.round(count('exports', values.exports, 1)),
  player: values.player ?? null,
  explainOnly: values['explain-only'],
};

/** Who and what the queries are about, read from the seeded data. */
interface Subject {
  id: string;
  name: string;
  games: number;
  opponent: { id: string; name: string };
  preset: string;
  from: Date;
  to: Date;
  /** A cursor 80 % of the way down the player's games. */
  deepCursor: { at: Date; id: string };
  deepOffset: number;
  /** Games of the player, for their full history. */
  gameIds: string[];
  family: 'contract' | 'bidding';
  players: number;
}

async function subjectOf(db: pg.Client): Promise<Subject> {
  // Setup only: counting every player's seats reads all of game_seats once.
  const who = options.player
    ? await db.query(
        `SELECT p.id::text, p.name, (SELECT count(*)::int FROM game_seats s WHERE s.player_id = p.id) AS games FROM players p WHERE p.name_key = lower($1)`,
        [options.player],
      )
    : await db.query(
        `SELECT p.id::text, p.name, c.games FROM (SELECT player_id, count(*)::int AS games FROM game_seats GROUP BY player_id) c
           JOIN players p ON p.id = c.player_id WHERE p.kind = 'human' ORDER BY c.games DESC LIMIT 1`,
      );
  if (who.rows.length === 0) throw new Error(options.player ? `no player named ${options.player}` : 'the database has no games: run npm run db:seed first');
  const { id, name, games } = who.rows[0];
  const opponent = (
    await db.query(
      `SELECT o.player_id::text AS id, p.name, count(*)::int AS n FROM game_seats s JOIN game_seats o ON o.game_id = s.game_id AND o.player_id <> s.player_id
         JOIN players p ON p.id = o.player_id WHERE s.player_id = $1 GROUP BY 1, 2 ORDER BY n DESC LIMIT 1`,
      [id],
    )
  ).rows[0];
  const preset = (
    await db.query(`SELECT g.preset, g.players, count(*) AS n FROM game_seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = $1 GROUP BY 1, 2 ORDER BY n DESC LIMIT 1`, [id])
  ).rows[0];
  const span = (await db.query(`SELECT min(created_at) AS lo, max(created_at) AS hi FROM games`)).rows[0];
  // A year's window in the middle of the seeded period.
  const mid = (span.lo.getTime() + span.hi.getTime()) / 2;
  const deepOffset = Math.floor(games * 0.8);
  const deep = (
    await db.query(
      `SELECT g.created_at, g.id::text FROM game_seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = $1
        ORDER BY g.created_at DESC, g.id DESC OFFSET $2 LIMIT 1`,
      [id, deepOffset],
    )
  ).rows[0];
  const sample = (await db.query(`SELECT game_id::text FROM game_seats WHERE player_id = $1 ORDER BY md5(game_id::text) LIMIT 50`, [id])).rows;
  return {
    id,
    name,
    games,
    opponent,
    preset: preset.preset,
    players: preset.players,
    family: preset.preset.startsWith('bidding') ? 'bidding' : 'contract',
    from: new Date(mid - 182 * 86_400_000),
    to: new Date(mid + 183 * 86_400_000),
    deepCursor: { at: deep.created_at, id: deep.id },
    deepOffset,
    gameIds: sample.map((r) => r.game_id),
  };
}

const PAGE = 20;

function gamesQuery(s: Subject, over: Partial<GamesQuery>): GamesQuery {
  return {
    playerIds: [s.id],
    subjectId: s.id,
    presets: null,
    playerCount: null,
    status: null,
    rated: null,
    imported: null,
    from: null,
    to: null,
    result: null,
    place: null,
    after: null,
    ...over,
  };
}

/** One kind of query: its requests (one operation may be several), and the SQL to EXPLAIN. */
interface Kind {
  name: string;
  /** The paths one operation GETs, in order; latency is per request. */
  operation(i: number): string[] | Promise<string[]>;
  explain: { label: string; sql: { text: string; values: unknown[] } }[];
}

function kinds(s: Subject): Kind[] {
  const player = encodeURIComponent(s.name);
  const filtered = `preset=${s.preset}&from=${s.from.toISOString()}&to=${s.to.toISOString()}&with=${encodeURIComponent(s.opponent.name)}`;
  const deepCursor = encodeCursor(s.deepCursor);
  return [
    {
      name: 'first page',
      operation: () => [`/api/v1/players/${player}/games?first=${PAGE}`],
      explain: [{ label: 'gamesPageSql, first page', sql: gamesPageSql(gamesQuery(s, {}), PAGE) }],
    },
    {
      name: `deep page (after game ${s.deepOffset} of ${s.games})`,
      operation: () => [`/api/v1/players/${player}/games?first=${PAGE}&after=${deepCursor}`],
      explain: [{ label: 'gamesPageSql, deep page', sql: gamesPageSql(gamesQuery(s, { after: s.deepCursor }), PAGE) }],
    },
    {
      name: 'filtered page (preset + dates + opponent)',
      operation: () => [`/api/v1/players/${player}/games?first=${PAGE}&${filtered}`],
      explain: [
        {
          label: 'gamesPageSql, preset + date range + opponent',
          sql: gamesPageSql(gamesQuery(s, { playerIds: [s.id, s.opponent.id], presets: [s.preset], from: s.from, to: s.to }), PAGE),
        },
      ],
    },
    {
      name: "a game's full history (event pages + score sheet)",
      operation: async (i) => {
        const id = s.gameIds[i % s.gameIds.length];
        return [...(await eventPages(id)), `/api/v1/games/${id}/deals`];
      },
      explain: [
        {
          label: 'event-log page (GamesService.events, as Prisma runs it)',
          sql: {
            text: `SELECT seq, kind, deal_index, seat, actor, cause, events, created_at, deadline FROM game_events WHERE game_id = $1::uuid AND seq > $2 ORDER BY seq LIMIT 101`,
            values: [s.gameIds[0], 100],
          },
        },
        {
          label: 'score sheet: its deals (ScoringService.scoreSheet, as Prisma runs it)',
          sql: { text: `SELECT d.* FROM deals d WHERE d.game_id = $1::uuid ORDER BY d.index`, values: [s.gameIds[0]] },
        },
        // Through the view tricks: live_tricks rows and a compacted game's packed deals.
        { label: 'score sheet: its tricks (gameTricksSql)', sql: gameTricksSql(s.gameIds[0]) },
      ],
    },
    {
      name: 'profile + statistics',
      operation: () => [`/api/v1/players/${player}`, `/api/v1/players/${player}/stats?preset=${s.preset}`],
      explain: [
        { label: 'profileSql', sql: profileSql(s.name.toLowerCase()) },
        { label: 'presetRecordsSql', sql: presetRecordsSql(s.id) },
        { label: 'recentGamesSql', sql: recentGamesSql(s.id, 10) },
        { label: 'playerRatingsSql', sql: playerRatingsSql(s.id) },
        { label: `contractStatsSql (${s.preset})`, sql: contractStatsSql(s.id, s.preset) },
      ],
    },
    {
      name: 'leaderboard page',
      operation: () => [`/api/v1/leaderboards/${s.family}/${s.players}?first=${PAGE}`],
      explain: [{ label: 'leaderboardSql', sql: leaderboardSql({ family: s.family, players: s.players, minGames: 0, after: null, limit: PAGE + 1 }) }],
    },
    {
      name: `export of ${options.exportLimit} records (NDJSON)`,
      operation: () => [],
      explain: [{ label: `gamesExportSql, limit ${options.exportLimit}`, sql: gamesExportSql(gamesQuery(s, {}), options.exportLimit) }],
    },
  ];
}

let baseUrl = '';
const historyPages = new Map<string, string[]>();

/** The event pages of a game: `after` = the last seq of the page before (the first run learns them). */
async function eventPages(id: string): Promise<string[]> {
  const known = historyPages.get(id);
  if (known) return known;
  const pages: string[] = [];
  let after = 0;
  for (;;) {
    const path = `/api/v1/games/${id}/events?after=${after}`;
    pages.push(path);
    const body = (await (await fetch(baseUrl + path)).json()) as { entries: { seq: number }[]; hasMore: boolean };
    if (!body.hasMore || body.entries.length === 0) break;
    after = body.entries[body.entries.length - 1].seq;
  }
  historyPages.set(id, pages);
  return pages;
}

interface KindResult {
  name: string;
  requests: number;
  operations: number;
  seconds: number;
  latency: LatencySummary;
  operationLatency: LatencySummary;
  errors: Record<string, number>;
}

async function runKind(kind: Kind): Promise<KindResult> {
  const latencies: number[] = [];
  const opLatencies: number[] = [];
  const errors: Record<string, number> = {};
  let measuring = false;
  let stopped = false;
  let next = 0;
  let operations = 0;
  const client = async () => {
    while (!stopped && !interrupted()) {
      const paths = await kind.operation(next++);
      const t0 = performance.now();
      for (const path of paths) {
        const t = performance.now();
        const response = await fetch(baseUrl + path);
        await response.arrayBuffer();
        if (measuring && !stopped) {
          latencies.push(performance.now() - t);
          if (response.status !== 200) errors[response.status] = (errors[response.status] ?? 0) + 1;
        }
      }
      if (measuring && !stopped) {
        opLatencies.push(performance.now() - t0);
        operations++;
      }
    }
  };
  let started = performance.now();
  const warm = setTimeout(() => {
    measuring = true;
    started = performance.now();
  }, options.warmup * 1000);
  let ended = 0;
  const stop = setTimeout(() => {
    stopped = true;
    ended = performance.now();
  }, (options.warmup + options.seconds) * 1000);
  await Promise.all(Array.from({ length: options.clients }, client));
  clearTimeout(warm);
  clearTimeout(stop);
  return {
    name: kind.name,
    requests: latencies.length,
    operations,
    seconds: ((ended || performance.now()) - started) / 1000,
    latency: summarise(latencies),
    operationLatency: summarise(opLatencies),
    errors,
  };
}

interface ExportResult {
  records: number;
  seconds: number;
  recordsPerSecond: number;
  latency: LatencySummary;
  status: number;
}

async function runExports(s: Subject): Promise<ExportResult> {
  const path = `/api/v1/players/${encodeURIComponent(s.name)}/games/export?limit=${options.exportLimit}`;
  const times: number[] = [];
  let records = 0;
  let status = 200;
  for (let i = 0; i < options.exports && !interrupted(); i++) {
    const t0 = performance.now();
    const response = await fetch(baseUrl + path);
    const text = await response.text();
    times.push(performance.now() - t0);
    if (response.status !== 200) status = response.status;
    const lines = text.split('\n').filter((line) => line.length > 0);
    records += lines.length;
    if (i === 0 && lines.length > 0 && !lines[0].includes('"mizerka-record/1"')) throw new Error(`the export's first line is not a record: ${lines[0].slice(0, 200)}`);
  }
  const seconds = times.reduce((a, b) => a + b, 0) / 1000;
  return { records, seconds, recordsPerSecond: records / seconds, latency: summarise(times), status };
}

/** EXPLAIN (ANALYZE, BUFFERS) of `sql`, and the tables it reads by a sequential scan. */
async function explain(db: pg.Client, sql: { text: string; values: unknown[] }): Promise<{ plan: string; seqScans: string[]; indexes: string[] }> {
  const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values as unknown[]);
  const plan = rows.map((r) => r['QUERY PLAN'] as string).join('\n');
  const seqScans = [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]);
  const indexes = [...new Set([...plan.matchAll(/(?:Index(?: Only)? Scan(?: Backward)?|Bitmap Index Scan) (?:using|on) (\w+)/g)].map((m) => m[1]))];
  return { plan, seqScans, indexes };
}

function table(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  stopOnSignals();
  const db = new pg.Client({ connectionString: options.url });
  await db.connect();
  onCleanUp('close the database connection', () => db.end());
  const [{ games }] = (await db.query(`SELECT count(*)::int AS games FROM games`)).rows;
  const size = (await db.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`)).rows[0].size;
  const settings = await postgresSettings(options.url);
  const s = await subjectOf(db);
  log(`${games} games (${size}); subject ${s.name} (${s.games} games), opponent ${s.opponent.name}, preset ${s.preset}`);
  const all = kinds(s);

  const results: KindResult[] = [];
  let exported: ExportResult | null = null;
  const loadStart = loadavg();
  if (!options.explainOnly) {
    const server = await startServer(options.url, { inProcess: false, cpuProfDir: null, serverNodeArgs: [] });
    baseUrl = server.url;
    log(`server at ${server.url}: ${server.mode}`);
    // The event pages of the sampled games are learnt before measuring (each page's `after`).
    for (const id of s.gameIds) await eventPages(id);
    for (const kind of all.slice(0, -1)) {
      if (interrupted()) break;
      log(`${kind.name}: ${options.warmup} s warm-up, then ${options.seconds} s, ${options.clients} clients`);
      const r = await runKind(kind);
      results.push(r);
      log(`${kind.name}: p95 ${fmt(r.latency.p95, 1)} ms`);
    }
    if (!interrupted()) {
      log(`${options.exports} exports of ${options.exportLimit} records`);
      exported = await runExports(s);
    }
    await server.stop();
  }

  const out: string[] = [];
  out.push(
    `\nMizerka history benchmark — ${new Date().toISOString()}`,
    `database: ${options.url.replace(/\/\/[^@]*@/, '//')} — ${games} games, ${size}; postgres ${Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(' ')}`,
    `machine:  ${cpus().length} CPUs, load average ${loadStart.map((x) => x.toFixed(2)).join(' ')} at start, ${loadavg().map((x) => x.toFixed(2)).join(' ')} at end; node ${process.version}`,
    `subject:  ${s.name} (${s.games} games), opponent ${s.opponent.name}, preset ${s.preset}, dates ${s.from.toISOString().slice(0, 10)}..${s.to.toISOString().slice(0, 10)}, pages of ${PAGE}`,
    `run:      ${options.clients} clients per kind (closed loops), ${options.warmup} s warm-up + ${options.seconds} s each; server in its own process`,
    '',
  );
  if (results.length > 0) {
    out.push(
      'Latency per request (ms) as the client sees it; "per op": a whole operation (a game\'s full history is all its event pages and its score sheet)',
      table(
        ['query', 'requests', 'req/s', 'p50', 'p95', 'p99', 'max', 'per op p50', 'per op p95', 'errors', 'p95 < 50 ms'],
        results.map((r) => [
          r.name,
          String(r.requests),
          fmt(r.requests / r.seconds, 0),
          fmt(r.latency.p50, 1),
          fmt(r.latency.p95, 1),
          fmt(r.latency.p99, 1),
          fmt(r.latency.max, 1),
          fmt(r.operationLatency.p50, 1),
          fmt(r.operationLatency.p95, 1),
          Object.entries(r.errors).map(([code, n]) => `${code}:${n}`).join(' ') || '0',
          r.latency.p95 < 50 && Object.keys(r.errors).length === 0 ? 'met' : 'NOT met',
        ]),
      ),
      '',
    );
  }
  if (exported) {
    out.push(
      `Export: ${exported.records} records in ${fmt(exported.seconds, 2)} s over ${options.exports} exports of ${options.exportLimit} (status ${exported.status}): ` +
        `${fmt(exported.recordsPerSecond, 0)} records/s (goal ≥ 2000: ${exported.recordsPerSecond >= 2000 ? 'met' : 'NOT met'}); ` +
        `per export p50 ${fmt(exported.latency.p50, 0)} ms, max ${fmt(exported.latency.max, 0)} ms`,
      '',
    );
  }
  out.push('Query plans: EXPLAIN (ANALYZE, BUFFERS) of the SQL each surface runs, with the subject above');
  const summary: string[][] = [];
  const plans: string[] = [];
  for (const kind of all) {
    for (const e of kind.explain) {
      const { plan, seqScans, indexes } = await explain(db, e.sql);
      summary.push([e.label, indexes.join(', ') || '–', seqScans.join(', ') || 'none']);
      plans.push(`\n— ${e.label}\n${plan}`);
    }
  }
  out.push(table(['query', 'indexes used', 'sequential scans'], summary, 3), ...plans, '');
  process.stdout.write(`${out.join('\n')}\n`);
}

let status = 0;
try {
  await main();
} catch (error) {
  process.stderr.write(`history-bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  status = 1;
} finally {
  await cleanUp();
}
process.exit(interrupted() ? 130 : status);
