// `npm run db:size`: what the database at DATABASE_URL takes on disk, per table and per index, and
// what one game takes of it by preset (finished games, and active ones when there are any): the
// figures the storage work (issue 30) is judged by. Reads only; run it on a seeded database
// (`npm run db:seed`) or a copy of a real one. See apps/api/bench/README.md, "Storage".
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { serverSettings } from './server-settings.js';

const USAGE = `npm run db:size -- [--json FILE] [--vacuum]

  --json FILE   also write the figures as JSON
  --vacuum      VACUUM (ANALYZE) the tables first (dead rows of earlier deletes then count as free space)

Needs DATABASE_URL. Per table: rows, heap, TOAST, indexes and all told (pg_relation_size,
pg_total_relation_size, pg_indexes_size); per index: its size and pg_stat_user_indexes.idx_scan
since the statistics were last reset; per game by preset and status: each game-owned table's
bytes shared out to the games whose rows they are (heap and TOAST by the rows' pg_column_size,
indexes by row count).`;

/**
 * Tables whose rows belong to one game, and how a row finds its game (alias t for the table, g for
 * games). player_events rows without a game (lobby events) and the outbox's and job queue's
 * short-lived rows are not shared out: they are in the per-table figures.
 */
const GAME_TABLES: { table: string; join: string }[] = [
  { table: 'games', join: 'games g' },
  { table: 'game_seats', join: 'game_seats t JOIN games g ON g.id = t.game_id' },
  { table: 'game_events', join: 'game_events t JOIN games g ON g.id = t.game_id' },
  { table: 'compact_logs', join: 'compact_logs t JOIN games g ON g.id = t.game_id' },
  { table: 'deals', join: 'deals t JOIN games g ON g.id = t.game_id' },
  { table: 'live_tricks', join: 'live_tricks t JOIN games g ON g.id = t.game_id' },
  { table: 'game_records', join: 'game_records t JOIN games g ON g.id = t.game_id' },
  { table: 'rating_changes', join: 'rating_changes t JOIN games g ON g.id = t.game_id' },
  { table: 'player_events', join: 'player_events t JOIN games g ON g.id = t.game_id' },
  { table: 'outbox', join: 'outbox t JOIN games g ON g.id = t.game_id' },
  { table: 'lobbies', join: 'lobbies t JOIN games g ON g.lobby_id = t.id' },
  { table: 'lobby_seats', join: 'lobby_seats t JOIN games g ON g.lobby_id = t.lobby_id' },
];

/** A heap tuple's header (23 bytes, aligned to 24) and its line pointer (4), besides its data. */
const ROW_OVERHEAD = 28;

interface TableSize {
  table: string;
  rows: number;
  heap: number;
  toast: number;
  indexes: number;
  total: number;
}

interface IndexSize {
  table: string;
  index: string;
  bytes: number;
  scans: number;
  definition: string;
}

interface GameShare {
  preset: string;
  status: string;
  games: number;
  /** Rows per game of each game-owned table. */
  rows: Record<string, number>;
  /** Bytes per game of each game-owned table: heap and TOAST, and indexes. */
  data: Record<string, number>;
  index: Record<string, number>;
  total: number;
}

export interface SizeReport {
  database: string;
  server: string;
  databaseBytes: number;
  tables: TableSize[];
  indexes: IndexSize[];
  perGame: GameShare[];
}

async function measure(client: pg.Client): Promise<SizeReport> {
  const [{ database, server, bytes }] = (
    await client.query<{ database: string; server: string; bytes: string }>(
      `SELECT current_database() AS database, current_setting('server_version') AS server, pg_database_size(current_database())::text AS bytes`,
    )
  ).rows;
  const tables = (
    await client.query<{ table: string; heap: string; total: string; indexes: string }>(
      // A partitioned table (player_events) is counted as the sum of its partitions, which are not
      // listed apart: its own sizes are zero.
      `SELECT CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END AS table,
              sum(pg_relation_size(r.oid))::text AS heap, sum(pg_total_relation_size(r.oid))::text AS total,
              sum(pg_indexes_size(r.oid))::text AS indexes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         CROSS JOIN LATERAL (SELECT c.oid WHERE c.relkind = 'r'
                             UNION ALL SELECT t.relid FROM pg_partition_tree(c.oid) t WHERE c.relkind = 'p' AND t.isleaf) r
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname IN ('public', 'graphile_worker')
        GROUP BY 1
        ORDER BY sum(pg_total_relation_size(r.oid)) DESC, 1`,
    )
  ).rows;
  const sizes: TableSize[] = [];
  for (const t of tables) {
    const [{ rows }] = (await client.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM ${qualified(client, t.table)}`)).rows;
    const heap = Number(t.heap);
    const indexes = Number(t.indexes);
    const total = Number(t.total);
    sizes.push({ table: t.table, rows, heap, indexes, toast: total - heap - indexes, total });
  }
  const indexes = (
    await client.query<{ table: string; index: string; bytes: string; scans: string; definition: string }>(
      `SELECT CASE WHEN s.schemaname = 'public' THEN s.relname ELSE s.schemaname || '.' || s.relname END AS table, s.indexrelname AS index,
              pg_relation_size(s.indexrelid)::text AS bytes, s.idx_scan::text AS scans, pg_get_indexdef(s.indexrelid) AS definition
         FROM pg_stat_user_indexes s
        WHERE s.schemaname IN ('public', 'graphile_worker')
        ORDER BY pg_relation_size(s.indexrelid) DESC, 2`,
    )
  ).rows.map((r) => ({ table: r.table, index: r.index, bytes: Number(r.bytes), scans: Number(r.scans), definition: r.definition }));

  const byTable = new Map(sizes.map((s) => [s.table, s]));
  const shares = new Map<string, GameShare>();
  const games = (await client.query<{ preset: string; status: string; games: number }>(`SELECT preset, status::text, count(*)::int AS games FROM games GROUP BY 1, 2 ORDER BY 1, 2`)).rows;
  for (const g of games) shares.set(`${g.preset}/${g.status}`, { ...g, rows: {}, data: {}, index: {}, total: 0 });
  for (const { table, join } of GAME_TABLES) {
    const size = byTable.get(table);
    if (!size || size.rows === 0) continue;
    const row = table === 'games' ? 'g' : 't';
    const [all] = (await client.query<{ bytes: string }>(`SELECT coalesce(sum(pg_column_size(t.*) + ${ROW_OVERHEAD}), 0)::text AS bytes FROM ${table} t`)).rows;
    const allBytes = Number(all.bytes);
    const groups = (
      await client.query<{ preset: string; status: string; rows: number; bytes: string }>(
        `SELECT g.preset, g.status::text, count(*)::int AS rows, sum(pg_column_size(${row}.*) + ${ROW_OVERHEAD})::text AS bytes FROM ${join} GROUP BY 1, 2`,
      )
    ).rows;
    for (const group of groups) {
      const share = shares.get(`${group.preset}/${group.status}`)!;
      const data = allBytes === 0 ? 0 : ((size.heap + size.toast) * Number(group.bytes)) / allBytes;
      const index = (size.indexes * group.rows) / size.rows;
      share.rows[table] = group.rows / share.games;
      share.data[table] = data / share.games;
      share.index[table] = index / share.games;
      share.total += (data + index) / share.games;
    }
  }
  return { database, server, databaseBytes: Number(bytes), tables: sizes, indexes, perGame: [...shares.values()] };
}

function qualified(client: pg.Client, table: string): string {
  return table
    .split('.')
    .map((part) => client.escapeIdentifier(part))
    .join('.');
}

const kB = (bytes: number) => (bytes / 1000).toFixed(bytes < 10_000 ? 2 : 1);
const MB = (bytes: number) => (bytes / 1e6).toFixed(2);

/** The report as Markdown tables, as the bench README shows them. */
export function formatReport(report: SizeReport): string {
  const lines: string[] = [];
  lines.push(`Database ${report.database} (PostgreSQL ${report.server}): ${MB(report.databaseBytes)} MB in all.`, '');
  const finished = report.perGame.filter((s) => s.status === 'finished');
  const finishedGames = finished.reduce((n, s) => n + s.games, 0);
  lines.push(`### Per table (MB; bytes per finished game: all told ÷ ${finishedGames} finished games)`, '');
  lines.push('| table | rows | heap | TOAST | indexes | all told | B per finished game |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const t of report.tables) {
    if (t.total < 64 * 1024 && t.rows === 0) continue;
    const perGame = finishedGames > 0 ? Math.round(t.total / finishedGames).toString() : '–';
    lines.push(`| ${t.table} | ${t.rows} | ${MB(t.heap)} | ${MB(t.toast)} | ${MB(t.indexes)} | ${MB(t.total)} | ${perGame} |`);
  }
  lines.push('', '### Per index (MB; scans: pg_stat_user_indexes.idx_scan since the last reset)', '');
  lines.push('| table | index | MB | B per finished game | scans |', '|---|---|---:|---:|---:|');
  for (const i of report.indexes) {
    if (i.bytes <= 16 * 1024) continue;
    const perGame = finishedGames > 0 ? Math.round(i.bytes / finishedGames).toString() : '–';
    lines.push(`| ${i.table} | ${i.index} | ${MB(i.bytes)} | ${perGame} | ${i.scans} |`);
  }
  const tables = GAME_TABLES.map((t) => t.table).filter((t) => report.perGame.some((s) => s.data[t] !== undefined));
  lines.push('', '### Per game, by preset and status (kB per game: rows and their index entries; data + index per table)', '');
  lines.push(`| preset | status | games | log entries/game | all told | ${tables.join(' | ')} |`, `|---|---|---:|---:|---:|${tables.map(() => '---:').join('|')}|`);
  for (const s of report.perGame) {
    const cells = tables.map((t) => (s.data[t] === undefined ? '–' : `${kB(s.data[t])} + ${kB(s.index[t])}`));
    lines.push(`| ${s.preset} | ${s.status} | ${s.games} | ${(s.rows.game_events ?? 0).toFixed(0)} | **${kB(s.total)}** | ${cells.join(' | ')} |`);
  }
  if (!report.perGame.some((s) => s.status === 'active')) lines.push('', 'No active game in this database.');
  return lines.join('\n');
}

async function main(): Promise<number> {
  let values: { json?: string; vacuum?: boolean; help?: boolean };
  try {
    values = parseArgs({ options: { json: { type: 'string' }, vacuum: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = serverSettings('db:size');
  if (!config) return 1;
  if (config.databaseUrl === null) {
    process.stderr.write(`db:size needs DATABASE_URL.\n\n${USAGE}\n`);
    return 2;
  }
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    if (values.vacuum) await client.query('VACUUM (ANALYZE)');
    const report = await measure(client);
    process.stdout.write(`${formatReport(report)}\n`);
    if (values.json) await writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`db:size failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  } finally {
    await client.end();
  }
}

process.exit(await main());
