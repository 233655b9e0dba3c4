/**
 * Environment variables read outside the settings' schema, and why they are not settings: knobs of
 * the tests and the benchmarks, and one message between the server's own processes. Listed in
 * docs/configuration.md; not-settings.test.ts fails on a `process.env` read that is in neither.
 */
export const NOT_SETTINGS: readonly { variable: string; readBy: string; description: string }[] = [
  {
    variable: 'MIZERKA_WORKER_DATABASE_URL',
    readBy: 'apps/api/src/main.ts',
    description: 'set by the first process for the server processes it forks (`WORKERS` > 1): the database it made ready. Never set by hand',
  },
  { variable: 'TEST_REDIS_URL', readBy: 'tests', description: 'the Redis the tests use (`redis://127.0.0.1:6379`)' },
  { variable: 'REDIS_SERVER', readBy: 'tests (test/e2e/instances.test.ts)', description: 'the `redis-server` program the several-instances tests start' },
  { variable: 'CHROMIUM_PATH', readBy: 'tests (test/web)', description: 'the Chromium of the browser tests (`/usr/bin/chromium`)' },
  { variable: 'E2E_SEED', readBy: 'tests (test/e2e)', description: 'the seed of the games the end-to-end tests play' },
  { variable: 'HOSTILE_RUNS', readBy: 'tests (test/e2e/hostile-client.test.ts)', description: 'requests the hostile client sends (1500)' },
  { variable: 'HOSTILE_DEBUG', readBy: 'tests (test/e2e/hostile-client.test.ts)', description: 'set: print the statuses the hostile client got' },
  { variable: 'OPENAPI_CONTRACT_CHECKED', readBy: 'tests (test/openapi-contract.ts)', description: 'a file to append the (method, route, status) checked against openapi.json to' },
  { variable: 'RESIGN_RACE_GAMES', readBy: 'tests (apps/api/src/moves/resign-race.test.ts)', description: 'games the resignation race plays (12)' },
  { variable: 'DEBUG_RETRIES', readBy: 'tests (apps/api/src/moves/resign-race.test.ts)', description: 'set: print the retries each resignation needed' },
  { variable: 'SHOW_PLANS', readBy: 'tests (apps/api/src/profiles/profiles.test.ts)', description: 'set: print the query plans checked' },
  { variable: 'HISTORY_EXPLAIN', readBy: 'tests (apps/api/src/history/history.explain.test.ts)', description: 'set: print the history queries\' plans' },
  { variable: 'RULES_PBT_SEED', readBy: 'tests (libs/rules)', description: 'the seed of the rules\' property-based tests' },
  { variable: 'RULES_PBT_RUNS', readBy: 'tests (libs/rules)', description: 'how many times the rules\' property-based tests run their usual count' },
  { variable: 'BENCH_SECONDS', readBy: 'benchmarks (libs/rules/bench)', description: 'how long each rules benchmark runs (3)' },
  { variable: 'BENCH_DATABASE_URL', readBy: 'benchmarks (apps/api/bench/bench-server.ts)', description: 'the database of a benchmark\'s server process (set by the benchmark)' },
  { variable: 'BENCH_ALLOC_PROF_DIR', readBy: 'benchmarks (apps/api/bench/bench-server.ts)', description: 'set: sample the server\'s allocations into this folder' },
  { variable: 'HISTORY_DATABASE_URL', readBy: 'benchmarks (apps/api/bench/history-bench.ts)', description: 'the database `bench:history` fills and reads' },
  { variable: 'QUALITY_SCREENS', readBy: 'tests (test/web/quality.test.ts)', description: 'the screens the quality sweep checks, by name, comma-separated (all)' },
  { variable: 'QUALITY_LANGUAGES', readBy: 'tests (test/web/quality.test.ts)', description: 'the languages the quality sweep checks, comma-separated (all)' },
  { variable: 'QUALITY_TIMES', readBy: 'tests (test/web/quality.test.ts)', description: 'set: print how long each screen took to open and to check' },
  { variable: 'PATH', readBy: 'tests and benchmarks', description: 'passed on to the server processes they start' },
  { variable: 'HOME', readBy: 'tests', description: 'passed on to the server processes they start' },
];
