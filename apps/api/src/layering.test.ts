import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The folders of apps/api/src in layers: a folder may import only from its own layer's lower
// neighbours, never upward, so a newcomer can read the application from the bottom up and no
// import cycle can form between features.
const LAYERS: string[][] = [
  ['generated', 'config', 'metrics', 'contract'],
  ['common'],
  ['prisma', 'database', 'instance-bus'],
  ['auth', 'outbox'],
  // Under the features: registration counts against its address's budget.
  ['rate-limit'],
  ['players', 'health', 'player-events'],
  // Signing in gives a session; accounts (passwords, email) sign people in.
  ['sessions'],
  ['passkeys'],
  ['accounts'],
  ['games'],
  ['lobbies', 'moves', 'scoring', 'chat'],
  ['clocks', 'inbox', 'webhooks', 'ratings', 'history', 'bots', 'reminders', 'vacations', 'notifications'],
  ['profiles', 'oauth'],
  // Events of many games: rounds of tables started through the game start, standings from their ends.
  ['tournaments'],
  // Web Push: a notice channel; its sends go out as webhooks do.
  ['push'],
  // Deletes what has outlived its retention across the features' tables; nothing imports it.
  ['retention', 'compaction'],
];
/**
 * Features whose folder has an index.ts: others import them only through it, or through pure.ts,
 * the part a worker thread may load (no NestJS, no database).
 */
const PUBLIC_SURFACE = ['games'];

const root = dirname(fileURLToPath(import.meta.url));
const rankOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.test-kit.ts') ? [path] : [];
  });
}

/** Relative imports of a file, resolved to paths under apps/api/src. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map((m) =>
    relative(root, resolve(dirname(file), m[1].replace(/\.js$/, '.ts'))),
  );
}

const files = sourceFiles(root).map((f) => relative(root, f));
const folderOf = (path: string) => (path.includes('/') ? path.split('/')[0] : null);

describe('module layering of apps/api/src', () => {
  it('knows every folder', () => {
    const folders = new Set(files.map(folderOf).filter((f): f is string => f !== null));
    expect([...folders].filter((f) => !rankOf.has(f))).toEqual([]);
  });

  it('has every folder import only from lower layers', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      if (from === null) continue; // app.ts, app.module.ts, main.ts: the top
      for (const target of importsOf(join(root, file))) {
        const to = folderOf(target);
        if (to === null || to === from) continue;
        if ((rankOf.get(to) ?? Infinity) >= rankOf.get(from)!) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('reaches a feature with a public surface only through its index', () => {
    const around: string[] = [];
    for (const file of files) {
      for (const target of importsOf(join(root, file))) {
        const to = folderOf(target);
        if (to && PUBLIC_SURFACE.includes(to) && folderOf(file) !== to && target !== `${to}/index.ts` && target !== `${to}/pure.ts`) around.push(`${file} -> ${target}`);
      }
    }
    expect(around).toEqual([]);
  });

  it('keeps services out of DTOs and models', () => {
    const bad = files
      .filter((f) => /\/(dto|models)\//.test(f))
      .flatMap((f) => importsOf(join(root, f)).filter((t) => t.endsWith('.service.ts')).map((t) => `${f} -> ${t}`));
    expect(bad).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const graph = new Map(files.map((f) => [f, importsOf(join(root, f)).filter((t) => files.includes(t))]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file)!) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
