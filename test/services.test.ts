import { describe, expect, it } from 'vitest';
import { inCi, serviceThere } from './services.js';

describe('inCi', () => {
  it('is CI when CI is set to anything but empty, 0 or false', () => {
    expect(inCi({ CI: 'true' })).toBe(true);
    expect(inCi({ CI: '1' })).toBe(true);
    expect(inCi({})).toBe(false);
    expect(inCi({ CI: '' })).toBe(false);
    expect(inCi({ CI: '0' })).toBe(false);
    expect(inCi({ CI: 'False' })).toBe(false);
  });
});

describe('serviceThere', () => {
  function run(missing: string | null, env: NodeJS.ProcessEnv) {
    const tests: { name: string; fn: () => void }[] = [];
    const warnings: string[] = [];
    const there = serviceThere('the Redis tests', missing, { env, test: (name, fn) => tests.push({ name, fn }), warn: (line) => warnings.push(line) });
    return { there, tests, warnings };
  }

  it('lets the tests run when nothing is missing, saying nothing', () => {
    expect(run(null, { CI: 'true' })).toEqual({ there: true, tests: [], warnings: [] });
    expect(run(null, {})).toEqual({ there: true, tests: [], warnings: [] });
  });

  it('outside CI skips them with one line naming what is missing', () => {
    expect(run('no Redis at redis://127.0.0.1:6379', {})).toEqual({ there: false, tests: [], warnings: ['the Redis tests skipped: no Redis at redis://127.0.0.1:6379'] });
  });

  it('in CI adds a test that fails naming what is missing', () => {
    const { there, tests, warnings } = run('no Redis at redis://127.0.0.1:6379', { CI: 'true' });
    expect(there).toBe(false);
    expect(warnings).toEqual([]);
    expect(tests).toHaveLength(1);
    expect(tests[0].fn).toThrow(/the Redis tests cannot run: no Redis at redis:\/\/127\.0\.0\.1:6379\. CI is set/);
  });
});
