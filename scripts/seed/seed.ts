// The seeding run: players (a few bots, and tokens for a handful), games in ranges (worker threads
// or this thread), then the ratings of the rated games in finishing order, as the server's rating
// job applies them one game at a time.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { hashToken } from '../../apps/api/src/auth/tokens.js';
import { prepareDatabase } from '../../apps/api/src/database/job-queue.js';
import { backfillPlayerStats } from '../../apps/api/src/profiles/player-stats.sql.js';
import { newSkill, rateTable, skillOrdinal, type Skill } from '../../apps/api/src/ratings/rating-math.js';
import { field, row, timeField } from '../../apps/api/src/database/copy-text.js';
import { connect, copyRows, loadRange, maySkipChecks, type GameRange, type RangeResult } from './load.js';
import { rngOf, uuidOf, type FinishedGame, type SeedPlayer } from './simulate.js';

export interface SeedOptions {
  url: string;
  games: number;
  players: number;
  seed: string;
  /** Games per COPY transaction. */
  batch: number;
  /** Worker threads; 0 plays every game in this thread. */
  workers: number;
  /** The newest game is created before this (ms); the oldest about two years earlier. */
  until: number;
  /** Players given an API token (the busiest ones). */
  tokens: number;
  log?: (line: string) => void;
}

export interface SeededToken {
  name: string;
  token: string;
}

export interface SeedResult {
  games: number;
  players: number;
  tokens: SeededToken[];
  rows: Record<string, number>;
  /** Seconds: the whole run, and the games' part (play and COPY). */
  seconds: number;
  gameSeconds: number;
  gamesPerSecond: number;
  databaseBytes: number;
}

const DAY = 86_400_000;
const NAMES = [
  'Ala', 'Ola', 'Ewa', 'Kasia', 'Basia', 'Zosia', 'Hania', 'Marta', 'Agata', 'Iza', 'Magda', 'Jola', 'Wanda', 'Krysia', 'Ania',
  'Jan', 'Piotr', 'Tomek', 'Marek', 'Adam', 'Kuba', 'Bartek', 'Staszek', 'Wojtek', 'Michal', 'Pawel', 'Jurek', 'Franek', 'Antek', 'Zbyszek',
];
const BOT_LEVELS = ['random', 'basic', 'strong'] as const;

/** The players of a run, the busiest first: people with a long tail of activity, and a few bots. */
export function seedPlayers(seed: string, count: number): { players: SeedPlayer[] } {
  const rng = rngOf(seed, 'players');
  const bots = Math.max(1, Math.min(6, Math.round(count / 500)));
  const players = Array.from({ length: count }, (_, i) => {
    const bot = i >= count - bots;
    const level = BOT_LEVELS[(count - 1 - i) % BOT_LEVELS.length];
    return {
      id: uuidOf(rng),
      name: bot ? `bot_${level}_${count - i}` : `${NAMES[rng.below(NAMES.length)]}${i + 1}`,
      bot,
      botLevel: bot ? level : null,
      // Seats by rank, 1/(rank + 20): the busiest play a few per cent of the games, most a handful.
      weight: 1 / (i + 20),
    };
  });
  return { players };
}

/** The API token of the run's i-th busiest player: derived from the seed, so a bench can be told it. */
export function seedToken(seed: string, i: number): string {
  return `mzk_${createHash('sha256').update(`mizerka-seed:${seed}:token:${i}`).digest('base64url')}`;
}

export async function seedDatabase(options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  await prepareDatabase(options.url);
  const sql = connect(options.url);
  try {
    const [{ games: existing }] = await sql<{ games: number }[]>`SELECT count(*)::int AS games FROM (SELECT 1 FROM games LIMIT 1) g`;
    if (existing > 0) throw new Error('the database already has games: seed an empty one (createdb …), the seeded ids are fixed by --seed');
    const skipChecks = await maySkipChecks(sql);
    const until = options.until;
    const from = until - 730 * DAY;
    const { players } = seedPlayers(options.seed, options.players);

    // Players joined before their first game: somewhen in the month before the seeded period.
    const rng = rngOf(options.seed, 'player-dates');
    const joined = players.map(() => from - rng.below(30) * DAY - rng.below(DAY));
    await copyRows(
      sql,
      'players (id, name, name_key, kind, bot_level, created_at)',
      players.map((p, i) => row([p.id, p.name, p.name.toLowerCase(), p.bot ? 'bot' : 'human', field(p.botLevel), timeField(joined[i])])).join(''),
    );
    const tokens: SeededToken[] = [];
    const tokenRows: string[] = [];
    for (let i = 0; i < Math.min(options.tokens, players.length); i++) {
      const token = seedToken(options.seed, i);
      tokens.push({ name: players[i].name, token });
      tokenRows.push(row([uuidOf(rng), players[i].id, 'seed', hashToken(token), timeField(joined[i])]));
    }
    await copyRows(sql, 'api_tokens (id, player_id, name, token_hash, created_at)', tokenRows.join(''));
    log(`${players.length} players (${players.filter((p) => p.bot).length} bots), ${tokens.length} with a token; foreign-key checks ${skipChecks ? 'skipped by the load (superuser)' : 'on'}`);

    const gamesStarted = performance.now();
    const base: Omit<GameRange, 'start' | 'end'> = {
      url: options.url,
      seed: options.seed,
      games: options.games,
      from,
      until,
      players: players.map(({ id, bot, weight, name, botLevel }) => ({ id, bot, weight, name, botLevel })),
      batch: options.batch,
      skipChecks,
    };
    const results = await loadGames(base, options.workers, (done) => {
      const seconds = (performance.now() - gamesStarted) / 1000;
      log(`${done}/${options.games} games, ${(done / seconds).toFixed(0)} games/s`);
    });
    const gameSeconds = (performance.now() - gamesStarted) / 1000;
    const rows: Record<string, number> = { players: players.length, apiTokens: tokens.length };
    for (const r of results) for (const [table, n] of Object.entries(r.rows)) rows[table] = (rows[table] ?? 0) + n;

    const rated = writeRatings(results.flatMap((r) => r.finished));
    await copyRows(
      sql,
      'rating_changes (game_id, player_id, family, players, place, mu_before, sigma_before, mu_after, sigma_after, created_at)',
      rated.changes.join(''),
    );
    await copyRows(sql, 'ratings (player_id, family, players, mu, sigma, ordinal, games, updated_at)', rated.ratings.join(''));
    rows.ratingChanges = rated.changes.length;
    rows.ratings = rated.ratings.length;
    log(`ratings: ${rated.ratings.length} ratings, ${rated.changes.length} rating changes`);
    // The profiles' aggregates, as the server's gameFinished consumer adds them (the same SQL).
    const statsStarted = performance.now();
    const stats = await backfillPlayerStats((q) => sql.unsafe(q.text, q.values as never[]) as never, { batch: 1000 });
    const [{ n: statRows }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM player_stats`;
    rows.playerStats = statRows;
    log(`player stats: ${stats.games} games in ${((performance.now() - statsStarted) / 1000).toFixed(1)} s`);
    // As autovacuum would in time: visibility maps (index-only scans) and statistics for the planner.
    log('VACUUM (ANALYZE)');
    await sql`VACUUM (ANALYZE)`;
    const [{ bytes }] = await sql<{ bytes: string }[]>`SELECT pg_database_size(current_database())::text AS bytes`;
    const seconds = (performance.now() - started) / 1000;
    return {
      games: options.games,
      players: players.length,
      tokens,
      rows,
      seconds,
      gameSeconds,
      gamesPerSecond: options.games / gameSeconds,
      databaseBytes: Number(bytes),
    };
  } finally {
    await sql.end();
  }
}

/** The games in as many ranges as workers (or one, in this thread). */
async function loadGames(base: Omit<GameRange, 'start' | 'end'>, workers: number, progress: (games: number) => void): Promise<RangeResult[]> {
  if (workers <= 0) return [await loadRange({ ...base, start: 0, end: base.games }, progress)];
  const parts = Math.min(workers, base.games);
  const done = new Array<number>(parts).fill(0);
  return Promise.all(
    Array.from({ length: parts }, (_, w) => {
      const range: GameRange = { ...base, start: Math.floor((base.games * w) / parts), end: Math.floor((base.games * (w + 1)) / parts) };
      const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: range });
      return new Promise<RangeResult>((resolve, reject) => {
        worker.on('message', (message: { type: 'progress'; games: number } | { type: 'done'; result: RangeResult }) => {
          if (message.type === 'progress') {
            done[w] = message.games;
            progress(done.reduce((a, b) => a + b, 0));
          } else resolve(message.result);
        });
        worker.on('error', reject);
        worker.on('exit', (code) => reject(new Error(`seeding worker ${w} exited with code ${code}`)));
      });
    }),
  );
}

/**
 * The rating changes of the rated games, one game at a time in finishing order, and the ratings
 * they leave: per player, family and player count, from a newcomer's skill.
 */
export function writeRatings(finished: FinishedGame[]): { changes: string[]; ratings: string[] } {
  const rated = finished.filter((g) => g.ratedAt !== null).sort((a, b) => a.ratedAt! - b.ratedAt! || (a.id < b.id ? -1 : 1));
  const skills = new Map<string, { skill: Skill; games: number; at: number }>();
  const changes: string[] = [];
  for (const g of rated) {
    const keys = g.seats.map((id) => `${id}|${g.family}|${g.players}`);
    const before = keys.map((k) => skills.get(k)?.skill ?? newSkill());
    const after = rateTable(before, g.places);
    g.seats.forEach((playerId, seat) => {
      const key = keys[seat];
      skills.set(key, { skill: after[seat], games: (skills.get(key)?.games ?? 0) + 1, at: g.ratedAt! });
      changes.push(
        row([g.id, playerId, g.family, String(g.players), String(g.places[seat]), String(before[seat].mu), String(before[seat].sigma), String(after[seat].mu), String(after[seat].sigma), timeField(g.ratedAt)]),
      );
    });
  }
  const ratings = [...skills].map(([key, r]) => {
    const [playerId, family, players] = key.split('|');
    return row([playerId, family, players, String(r.skill.mu), String(r.skill.sigma), String(skillOrdinal(r.skill)), String(r.games), timeField(r.at)]);
  });
  return { changes, ratings };
}
