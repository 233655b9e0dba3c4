// The replay command run in-process for tests: its exit code and what it wrote, and record files.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'mizerka-cli-'));

/** Writes `content` (JSON unless a string) to a temporary file; returns its path. */
export function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** Runs `mizerka ARGV…` and returns its exit code and output. */
export async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  process.exitCode = undefined;
  try {
    await main(argv);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, out, err };
}
