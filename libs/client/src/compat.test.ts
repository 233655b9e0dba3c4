// The compatibility test: the SDK of the previous release, built from its committed contract,
// still passes its own core scenarios against the current server. Its typed operations are
// generated from apps/api/contract/<release>/schema.graphql (codegen validates every operation
// against that schema), the package is compiled as its build does (tsconfig.build.json, no Node
// types), and src/core.test-kit.ts runs with what the compiler emitted. A change of the server
// that would break that release's clients (a field gone, a type narrowed, an enum value a typed
// client cannot take in) fails here even if the contract test let it through.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.js';
import { FAST } from '../../../apps/api/src/bots/bots.test-kit.js';
import { coreScenarios, type SdkModule } from './core.test-kit.js';
// @ts-expect-error: a plain ESM script of the build, without types
import { generateClientTypes } from '../codegen.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const CONTRACTS = here('../../../apps/api/contract');
const SOURCE = here('.');

/** The newest release kept under apps/api/contract (by semantic version). */
const release = readdirSync(CONTRACTS)
  .filter((name) => /^\d+\.\d+\.\d+$/.test(name))
  .sort((a, b) => {
    const [x, y] = [a, b].map((v) => v.split('.').map(Number));
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  })
  .at(-1)!;

/**
 * Builds the SDK as of `contract` into `dir` (under dist/, which is ignored, so node_modules
 * resolve as for the package): the sources, the types generated from the contract, compiled by
 * tsc with the package's build options (in a process of its own: it runs while the server starts).
 * Returns the emitted index module's path; throws with the compiler's words if it does not compile.
 */
async function buildSdk(contract: string, dir: string): Promise<string> {
  mkdirSync(join(dir, 'src/gql'), { recursive: true });
  for (const file of readdirSync(SOURCE)) {
    if (file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.test-kit.ts')) copyFileSync(join(SOURCE, file), join(dir, 'src', file));
  }
  writeFileSync(join(dir, 'src/gql/graphql.ts'), await generateClientTypes({ contract }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: here('../tsconfig.build.json'), compilerOptions: { rootDir: '.', outDir: 'out', declaration: false, sourceMap: false }, include: ['src/**/*.ts'] }),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const { status, output } = await new Promise<{ status: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ status: code, output }));
  });
  if (status !== 0) throw new Error(`The SDK does not compile against ${contract}:\n${output}`);
  return join(dir, 'out/src/index.js');
}

let t: TestApp;
let built: SdkModule;
const dir = here(`../../../dist/compat/client-${release}-${process.pid}`);

beforeAll(async () => {
  const started = performance.now();
  const building = buildSdk(join(CONTRACTS, release), dir).then((index) => (console.log(`the SDK of ${release}: generated and compiled in ${Math.round(performance.now() - started)} ms`), index));
  const [index, app] = await Promise.all([building, startTestApp(FAST)]);
  t = app;
  built = (await import(pathToFileURL(index).href)) as SdkModule;
  expect(typeof built.MizerkaClient).toBe('function');
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`the SDK of release ${release} (from apps/api/contract/${release}) against this server`, () => {
  coreScenarios(() => built, () => t);
});
