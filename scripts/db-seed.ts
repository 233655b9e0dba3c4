// `npm run db:seed -- --games 100000`: fills the empty database at DATABASE_URL with finished games
// of every preset, played with random legal moves through @mizerka/rules and written as the server
// writes a played game (migrating first, as the server does at boot). See scripts/seed/.
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { seedDatabase } from './seed/seed.js';
import { serverSettings } from './server-settings.js';

const USAGE = `npm run db:seed -- [--games N] [--players N] [--seed S] [--batch N] [--workers N] [--until ISO-DATE] [--tokens N]

  --games N     finished games to write (default 1000)
  --players N   players, a few of them bots (default games / 30, at least 12)
  --seed S      the same seed writes the same database (default 1)
  --batch N     games per COPY transaction (default 200)
  --workers N   worker threads playing and writing games (default: the CPUs, at most 4; 0 = this thread)
  --until DATE  the newest game is created before this (default: today, 00:00 UTC); the oldest two years earlier
  --tokens N    the busiest N players get an API token, printed at the end (default 5)

Needs DATABASE_URL, an empty database (createdb -h 127.0.0.1 -U postgres mizerka_history).`;

function whole(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`--${name} needs a whole number ≥ ${min}, not ${JSON.stringify(raw)}`);
  return value;
}

class UsageError extends Error {}

async function main(): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      options: {
        games: { type: 'string' },
        players: { type: 'string' },
        seed: { type: 'string' },
        batch: { type: 'string' },
        workers: { type: 'string' },
        until: { type: 'string' },
        tokens: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = serverSettings('db:seed');
  if (!config) return 1;
  const url = config.databaseUrl;
  if (url === null) {
    process.stderr.write(`db:seed needs DATABASE_URL: it writes a great deal, so it never picks a database by itself.\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
    const games = whole('games', str('games'), 1000, 1);
    const until = str('until') === undefined ? new Date().setUTCHours(0, 0, 0, 0) : Date.parse(str('until')!);
    if (!Number.isFinite(until)) throw new UsageError(`--until needs a date, not ${JSON.stringify(str('until'))}`);
    const options = {
      url,
      games,
      players: whole('players', str('players'), Math.max(12, Math.round(games / 30)), 5),
      seed: str('seed') ?? '1',
      batch: whole('batch', str('batch'), 200, 1),
      workers: whole('workers', str('workers'), Math.min(4, cpus().length), 0),
      until,
      tokens: whole('tokens', str('tokens'), 5, 0),
      log: (line: string) => process.stdout.write(`[db:seed ${new Date().toISOString().slice(11, 19)}] ${line}\n`),
    };
    options.log(`seeding ${games} games, ${options.players} players, seed ${JSON.stringify(options.seed)}, batch ${options.batch}, ${options.workers} workers`);
    const result = await seedDatabase(options);
    const rows = Object.entries(result.rows)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ');
    process.stdout.write(
      [
        `seeded ${result.games} games in ${result.seconds.toFixed(1)} s (games: ${result.gameSeconds.toFixed(1)} s, ${result.gamesPerSecond.toFixed(0)} games/s)`,
        `rows: ${rows}`,
        `database size: ${(result.databaseBytes / 2 ** 30).toFixed(2)} GiB`,
        ...result.tokens.map((t) => `token of ${t.name}: ${t.token}`),
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`db:seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

process.exit(await main());
