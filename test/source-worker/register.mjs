// A worker thread started from TypeScript sources (under Vitest) loads them through these hooks:
// `node --import <this file>` in the worker's execArgv.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
