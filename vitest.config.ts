import { createRequire } from 'node:module';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } } as never,
  resolve: {
    // graphql 16 has no exports map: Vite would pick its ESM build for our code while Apollo and
    // @nestjs/graphql, loaded by Node, get the CommonJS one. Two copies break `instanceof` and
    // the code-first schema, so everyone gets Node's copy.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  // @mizerka/rules (libs/rules) from its TypeScript source, not its compiled dist (its "source" export).
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    // One PostgreSQL (DATABASE_URL, or an embedded one) and a migrated template database per run.
    globalSetup: ['test/global-setup.ts'],
    // Integration tests against a real PostgreSQL on a 2-core CI machine: room for a loaded moment
    // (a test waiting on a real clock says its own, longer time).
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // One file at a time on the 2-core machine (Vitest's default, cores - 1): two at a time was barely
    // faster (the suite is CPU-bound: 860 s a pass against 880-910 s) and two files that each start several
    // servers (history export, the several-instances tests) overran PostgreSQL's 100 connections.
    maxWorkers: 1,
  },
});
