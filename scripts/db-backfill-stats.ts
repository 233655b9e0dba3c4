// `npm run db:backfill-stats -- [--batch N]`: adds every finished game whose figures are not in
// player_stats yet (games.stats_at is null) to its players' aggregates, `--batch` games per
// statement, with the same SQL as the server's gameFinished consumer
// (apps/api/src/profiles/player-stats.sql.ts). Run it once after migrating a filled database; it
// may run while the server serves (each game is claimed once, whoever comes first), and stopped,
// it carries on where it was when run again.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { backfillPlayerStats } from '../apps/api/src/profiles/player-stats.sql.js';
import { serverSettings } from './server-settings.js';

const USAGE = `npm run db:backfill-stats -- [--batch N]

  --batch N   games per statement (default 1000)

Needs DATABASE_URL; run the migrations first (npm run db:migrate).`;

async function main(): Promise<number> {
  let values: { batch?: string; help?: boolean };
  try {
    values = parseArgs({ options: { batch: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const batch = values.batch === undefined ? 1000 : Number(values.batch);
  if (!Number.isInteger(batch) || batch < 1) {
    process.stderr.write(`--batch needs a whole number ≥ 1, not ${JSON.stringify(values.batch)}\n\n${USAGE}\n`);
    return 2;
  }
  const config = serverSettings('db:backfill-stats');
  if (!config) return 1;
  const url = config.databaseUrl;
  if (url === null) {
    process.stderr.write(`db:backfill-stats needs DATABASE_URL.\n\n${USAGE}\n`);
    return 2;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const log = (line: string) => process.stdout.write(`[db:backfill-stats ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
  try {
    const [{ pending }] = (
      await client.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM games WHERE stats_at IS NULL AND status = 'finished' AND imported_by IS NULL`,
      )
    ).rows;
    log(`${pending} finished games to add, ${batch} per statement`);
    const started = performance.now();
    let reported = 0;
    const result = await backfillPlayerStats(async (sql) => (await client.query(sql.text, sql.values as unknown[])).rows, {
      batch,
      progress: ({ games, rows }) => {
        const now = performance.now();
        if (now - reported < 2000) return;
        reported = now;
        const seconds = (now - started) / 1000;
        log(`${games}/${pending} games, ${rows} rows upserted, ${(games / seconds).toFixed(0)} games/s`);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    await client.query('ANALYZE player_stats');
    process.stdout.write(
      `added ${result.games} games (${result.rows} rows upserted) in ${seconds.toFixed(1)} s, ${(result.games / Math.max(seconds, 1e-9)).toFixed(0)} games/s\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`db:backfill-stats failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  } finally {
    await client.end();
  }
}

process.exit(await main());
