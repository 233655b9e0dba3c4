import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import postgres from 'postgres';

/** The archive file of a feed month: `<dir>/player_events_y2026m01.csv.gz`. */
export function archiveFile(dir: string, table: string): string {
  return join(dir, `${table}.csv.gz`);
}

/**
 * Copies the table (a feed month, detached) to `<dir>/<table>.csv.gz`: `COPY … TO STDOUT (FORMAT
 * csv, HEADER)` through gzip into a hidden file, flushed to disk, then renamed, so that a file of
 * that name is always whole (a copy stopped midway leaves only the hidden one, overwritten by the
 * next try). `table` is one of the feed's partition names (made in partitions.sql.ts, never from
 * input). Answers the file and its size.
 */
export async function archiveTable(url: string, table: string, dir: string): Promise<{ file: string; bytes: number }> {
  await mkdir(dir, { recursive: true });
  const file = archiveFile(dir, table);
  const partial = join(dir, `.${table}.csv.gz.partial`);
  const sql = postgres(url, { max: 1, onnotice: () => undefined, connection: { application_name: 'mizerka-archive' } });
  try {
    const rows = await sql.unsafe(`COPY "${table}" TO STDOUT WITH (FORMAT csv, HEADER)`).readable();
    await pipeline(rows, createGzip(), createWriteStream(partial));
    const handle = await open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    // The rename itself reaches the disk with the folder's entry.
    const folder = await open(dir, 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
    return { file, bytes: (await stat(file)).size };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
