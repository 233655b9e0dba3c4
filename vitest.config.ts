import { createRequire } from 'node:module';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/slow-first-sequencer.js';

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
    // Two files at a time on the 2-core machine (Vitest's default is cores - 1): most files wait on
    // PostgreSQL, sockets or real clocks, so a second one fills the waits. Each file has databases
    // of its own; both stay well under PostgreSQL's 100 connections.
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
