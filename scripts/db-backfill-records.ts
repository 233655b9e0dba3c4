// `npm run db:backfill-records`: stores the record of every finished game that has none yet (games
// that ended before records were stored at a game's end), in batches; safe to stop and run again.
import { parseArgs } from 'node:util';
import { backfillRecords } from './records/backfill.js';
import { serverSettings } from './server-settings.js';

const USAGE = `npm run db:backfill-records -- [--batch N] [--players NAME,NAME]

  --batch N         games per statement (default 500)
  --players NAMES   only the games of these players (comma-separated names)

Needs DATABASE_URL, migrated (npm run db:migrate).
`;

let status = 0;
try {
  const { values } = parseArgs({
    options: { batch: { type: 'string' }, players: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const config = serverSettings('db:backfill-records');
  if (!config) process.exit(1);
  const url = config.databaseUrl;
  if (url === null) {
    process.stdout.write(USAGE);
    process.exit(2);
  }
  const batch = values.batch === undefined ? 500 : Number(values.batch);
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`--batch needs a whole number ≥ 1, not ${JSON.stringify(values.batch)}`);
  const players = values.players ? values.players.split(',').map((n) => n.trim()).filter((n) => n !== '') : null;
  const rate = (n: number, s: number) => (s > 0 ? (n / s).toFixed(0) : '-');
  const done = await backfillRecords({
    url,
    batch,
    players,
    progress: (p) => process.stdout.write(`${p.stored}/${p.missing} records, ${p.seconds.toFixed(1)} s, ${rate(p.stored, p.seconds)} records/s\n`),
  });
  process.stdout.write(`stored ${done.stored} records in ${done.seconds.toFixed(1)} s (${rate(done.stored, done.seconds)} records/s)\n`);
} catch (error) {
  process.stderr.write(`db:backfill-records failed: ${error instanceof Error ? error.message : String(error)}\n`);
  status = 1;
}
process.exit(status);
