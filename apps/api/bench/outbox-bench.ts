// `npm run bench:outbox`: what it costs PostgreSQL to record a move's follow-ups in the move's own
// transaction, four ways, on the benchmark's database (embedded, or a fresh one on DATABASE_URL).
// Each transaction updates one of 100 rows (a stand-in for the guarded game UPDATE), then:
//   bare       — nothing more
//   outbox     — a plain INSERT into a table (what the move statement does)
//   notify     — pg_notify, as a job queue's insert does (PostgreSQL locks the queue at commit)
//   add_job    — graphile-worker's add_job (insert + NOTIFY), jobs left queued as under load
// Prints transactions per second per way; a script that prints figures, not a test.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startDatabase } from './database.js';
import { cleanUp, log, stopOnSignals } from './lifecycle.js';

const WAYS: Record<string, string> = {
  bare: `UPDATE bench_games SET v = v + 1 WHERE id = $1`,
  outbox: `WITH u AS (UPDATE bench_games SET v = v + 1 WHERE id = $1 RETURNING id)
           INSERT INTO bench_outbox (payload) SELECT '{"seq": 1}'::jsonb FROM u`,
  notify: `WITH u AS (UPDATE bench_games SET v = v + 1 WHERE id = $1 RETURNING id)
           SELECT pg_notify('jobs:insert', 'x') FROM u`,
  add_job: `WITH u AS (UPDATE bench_games SET v = v + 1 WHERE id = $1 RETURNING id),
                 o AS (SELECT graphile_worker.add_job('bench', '{"seq": 1}'::json) FROM u)
            SELECT count(*) FROM o`,
};

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '2' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write('npm run bench:outbox -- [--connections 10] [--seconds 4] [--rounds 2]\n');
  process.exit(0);
}
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
if (![connections, seconds, rounds].every((n) => Number.isInteger(n) && n >= 1)) {
  process.stderr.write('--connections, --seconds and --rounds take whole numbers ≥ 1\n');
  process.exit(2);
}

stopOnSignals();
try {
  const database = await startDatabase();
  log(database.description);
  const pool = new pg.Pool({ connectionString: database.url, max: connections, connectionTimeoutMillis: 10_000 });
  await pool.query(`CREATE TABLE bench_games (id int PRIMARY KEY, v int NOT NULL)`);
  await pool.query(`INSERT INTO bench_games SELECT i, 0 FROM generate_series(1, 100) AS i`);
  await pool.query(`CREATE TABLE bench_outbox (id bigserial PRIMARY KEY, payload jsonb NOT NULL)`);
  process.stdout.write(`\n${connections} connections, ${seconds} s per way and round\nround  way       transactions/s\n`);
  for (let round = 1; round <= rounds; round++) {
    for (const [way, sql] of Object.entries(WAYS)) {
      const until = performance.now() + seconds * 1000;
      const started = performance.now();
      let done = 0;
      await Promise.all(
        Array.from({ length: connections }, async (_, loop) => {
          for (let i = 0; performance.now() < until; i++) {
            await pool.query(sql, [((loop * 10 + i) % 100) + 1]);
            done++;
          }
        }),
      );
      const rate = done / ((performance.now() - started) / 1000);
      process.stdout.write(`${String(round).padEnd(5)}  ${way.padEnd(8)}  ${Math.round(rate).toString().padStart(14)}\n`);
    }
  }
  await pool.end();
} finally {
  await cleanUp();
}
