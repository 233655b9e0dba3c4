// The rules test kit: generators, a random-game driver, a reference model of docs/rules.md, checks, and
// deal construction. Importable by any test (the server's too); it uses only the public rules API.
export * from './rng.js';
export * from './deck.js';
export * from './json.js';
export * from './arbitraries.js';
export * from './model.js';
export * from './driver.js';
export * from './checks.js';
export * from './rejections.js';
export * from './construct.js';
export * from './run.js';
export * from './params.js';
export * from './shuffle.js';
