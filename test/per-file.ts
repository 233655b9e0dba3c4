// Hooks that a shared test module registers for every test file that uses it. Vitest runs the
// test files of the `shared` project (vitest.config.ts) one after another in one process without
// resetting their modules (isolate: false): a module's top level runs once, in the first file that
// imports it. What it registers with everyTestFile runs there and again at the start of every
// later file (test/setup-file.ts), so each file still gets its own afterAll.
const registrations = new Set<() => void>();

/** Runs `register` now (the importing file) and at the start of every later test file. */
export function everyTestFile(register: () => void): void {
  if (registrations.has(register)) return;
  registrations.add(register);
  register();
}

/** For test/setup-file.ts: the registrations again, for the test file starting now. */
export function registerForThisFile(): void {
  for (const register of registrations) register();
}
