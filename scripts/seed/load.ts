// Writing seeded games with COPY through Postgres.js: one transaction per batch of games, one COPY
// per table in it, so a batch is all there or not at all.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { COLUMNS, Rows, seedContext, seedGame, TABLE_ORDER, type FinishedGame, type SeedPlayer } from './simulate.js';

export type Sql = postgres.Sql;

export function connect(url: string): Sql {
  // COPY of a big batch holds the connection a while; no statement timeout, notices dropped.
  return postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 0, connect_timeout: 30 });
}

/** COPY `text` (COPY text format) into `target` ("table (columns)"). */
export async function copyRows(sql: Sql | postgres.TransactionSql, target: string, text: string): Promise<void> {
  if (text === '') return;
  const stream = await sql.unsafe(`COPY ${target} FROM STDIN`).writable();
  await pipeline(Readable.from([text]), stream);
}

/** Whether this role may switch foreign-key triggers off for its own session (superuser). */
export async function maySkipChecks(sql: Sql): Promise<boolean> {
  const [r] = await sql<{ super: boolean }[]>`SELECT rolsuper AS super FROM pg_roles WHERE rolname = current_user`;
  return r?.super === true;
}

export interface GameRange {
  url: string;
  seed: string;
  games: number;
  from: number;
  until: number;
  players: SeedPlayer[];
  start: number;
  end: number;
  batch: number;
  /**
   * Every row is consistent by construction (parents are written before or with their
   * children), so a superuser's load may skip the per-row foreign-key triggers
   * (session_replication_role = replica, for its own transactions only).
   */
  skipChecks: boolean;
}

export interface RangeResult {
  finished: FinishedGame[];
  rows: Record<string, number>;
  bytes: number;
}

/** Plays and writes games start..end-1; `progress` after each batch with the games written so far. */
export async function loadRange(range: GameRange, progress: (games: number) => void = () => {}): Promise<RangeResult> {
  const ctx = seedContext(range.seed, range.games, range.from, range.until, range.players);
  const sql = connect(range.url);
  const finished: FinishedGame[] = [];
  const counts: Record<string, number> = Object.fromEntries(TABLE_ORDER.map((t) => [t, 0]));
  let bytes = 0;
  try {
    for (let first = range.start; first < range.end; first += range.batch) {
      const rows = new Rows();
      for (let i = first; i < Math.min(range.end, first + range.batch); i++) finished.push(seedGame(ctx, i, rows));
      await sql.begin(async (tx) => {
        if (range.skipChecks) await tx`SET LOCAL session_replication_role = replica`;
        for (const table of TABLE_ORDER) {
          const text = rows[table].join('');
          counts[table] += rows[table].length;
          bytes += text.length;
          await copyRows(tx, COLUMNS[table], text);
        }
      });
      progress(finished.length);
    }
  } finally {
    await sql.end();
  }
  return { finished, rows: counts, bytes };
}
