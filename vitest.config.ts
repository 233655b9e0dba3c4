import { createRequire } from 'node:module';
import { defaultServerConditions } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const require = createRequire(import.meta.url);

// What every project below builds its tests with.
const build = {
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } } as never,
  resolve: {
    // graphql 16 has no exports map: Vite would pick its ESM build for our code while Apollo and
    // @nestjs/graphql, loaded by Node, get the CommonJS one. Two copies break `instanceof` and
    // the code-first schema, so everyone gets Node's copy.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  // @mizerka/rules (libs/rules) from its TypeScript source, not its compiled dist (its "source" export).
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
};

// Test files that replace a module (vi.mock): one process each, so that no other file sees the
// replacement and the replaced module is loaded afresh for them.
const ISOLATED = ['apps/api/src/lobbies/toy-preset.test.ts', 'apps/api/src/database/migrations.test.ts', 'apps/web/src/terms.test.ts'];
const EXCLUDE = ['node_modules/**', 'dist/**'];
// Files a run leaves out (comma-separated, as in `include`): CI's pass on this machine's PostgreSQL
// under Node 20 leaves out end-to-end files that its other two passes run (.ci/run).
const SKIPPED = (process.env.TEST_SKIP_FILES ?? '').split(',').map((f) => f.trim()).filter(Boolean);
const WEB = ['test/web/**/*.test.ts'];
// Every screen × language × size through axe (minutes): a project of its own, so CI runs it once.
const SWEEP = ['test/web/quality.test.ts'];

const project = (test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration => ({
  ...build,
  test: {
    // Integration tests against a real PostgreSQL on a 2-core CI machine: room for a loaded moment
    // (a test waiting on a real clock says its own, longer time).
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Hooks that shared test modules register for every file using them (test/per-file.ts).
    setupFiles: ['test/setup-file.ts'],
    ...test,
  },
});

export default defineConfig({
  ...build,
  test: {
    // One PostgreSQL (DATABASE_URL, or an embedded one) and a migrated template database per run
    // (the root's, which every project below inherits).
    globalSetup: ['test/global-setup.ts'],
    // One file at a time on the 2-core machine (Vitest's default, cores - 1): two at a time was barely
    // faster (the suite is CPU-bound: 860 s a pass against 880-910 s) and two files that each start several
    // servers (history export, the several-instances tests) overran PostgreSQL's 100 connections.
    maxWorkers: 1,
    projects: [
      // Every file in one process, one after another, its modules kept between files (isolate:
      // false): NestJS, Prisma and the app are imported once a run, not once a file (~190 s of a
      // pass). Each file still starts its own app on its own database.
      project({ name: 'shared', include: ['**/*.test.ts'], exclude: [...EXCLUDE, ...ISOLATED, ...WEB, ...SKIPPED], isolate: false }),
      // The web client in Chromium, alike; a project of its own so that a run can leave it out
      // (`--project shared --project isolated`: Vitest's --exclude does not reach projects).
      project({ name: 'web', include: WEB, exclude: [...EXCLUDE, ...SWEEP], isolate: false }),
      project({ name: 'sweep', include: SWEEP, exclude: EXCLUDE, isolate: false }),
      project({ name: 'isolated', include: ISOLATED, exclude: EXCLUDE }),
    ],
  },
});
