import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from './app-config.js';
import { NOT_SETTINGS } from './not-settings.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SOURCE = /\.(ts|tsx|mts|js|mjs|cjs)$/;
const SKIPPED = /(^|\/)(node_modules|dist|generated)\//;

/** Every `process.env` read of the code the repository runs (the example client aside: a program of its own). */
function environmentReads(): { variable: string; file: string }[] {
  const reads: { variable: string; file: string }[] = [];
  for (const top of ['apps', 'libs', 'scripts', 'test']) {
    for (const entry of readdirSync(join(ROOT, top), { recursive: true, encoding: 'utf8' })) {
      const file = `${top}/${entry}`;
      if (!SOURCE.test(file) || SKIPPED.test(file)) continue;
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, named, quoted, computed] of text.matchAll(/process\.env(?:\.(\w+)|\[\s*['"](\w+)['"]\s*\]|\[\s*(\w+)\s*\])/g)) {
        // A name kept in a constant: `const WORKER_DATABASE_URL = 'MIZERKA_WORKER_DATABASE_URL'`.
        const constant = computed && new RegExp(`\\b${computed}\\s*=\\s*['"](\\w+)['"]`).exec(text)?.[1];
        reads.push({ variable: named ?? quoted ?? constant ?? `[${computed}] (a name this test cannot resolve)`, file });
      }
    }
  }
  return reads;
}

describe('environment variables', () => {
  const settings = new Set(SETTINGS.flatMap(({ meta }) => [meta.variable, ...(meta.replaces ? [meta.replaces.variable] : [])]));
  const others = new Set(NOT_SETTINGS.map((v) => v.variable));
  const reads = environmentReads();

  it('are read outside the settings only when they are listed as not settings', () => {
    expect(reads.length).toBeGreaterThan(10);
    const unknown = reads.filter(({ variable }) => !settings.has(variable) && !others.has(variable));
    expect(unknown, 'add them to settings.ts, or to not-settings.ts if the server never reads them from an operator').toEqual([]);
  });

  it('listed as not settings are still read, and are not settings too', () => {
    const read = new Set(reads.map((r) => r.variable));
    expect([...others].filter((v) => !read.has(v)), 'listed in not-settings.ts but read nowhere').toEqual([]);
    expect([...others].filter((v) => settings.has(v))).toEqual([]);
  });
});
