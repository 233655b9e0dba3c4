import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('gives sensible defaults with an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      dataDir: '.data',
      logLevel: 'info',
      redisUrl: null,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://u:p@db:5432/mizerka',
      DATA_DIR: '/var/lib/mizerka',
      DATABASE_POOL_SIZE: '20',
      REDIS_URL: 'redis://cache:6379',
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100',
      JOB_WORKER: 'off',
      JOB_CONCURRENCY: '8',
      JOB_POLL_MS: '500',
      JOB_BATCH: '1',
      JOB_BATCH_DELAY_MS: '0',
      JOB_RELAY_DELAY_MS: '5',
    });
    expect(config).toEqual({
      nodeEnv: 'production',
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: 'postgresql://u:p@db:5432/mizerka',
      dataDir: '/var/lib/mizerka',
      databasePoolSize: 20,
      redisUrl: 'redis://cache:6379',
      logLevel: 'debug',
      rateLimitPerMinute: 100,
      authCacheSeconds: 10,
      gameCache: false,
      jobs: { worker: false, concurrency: 8, pollMs: 500, batch: 1, batchDelayMs: 0, relayDelayMs: 5 },
    });
  });

  it('works jobs in every instance by default', () => {
    expect(loadConfig({}).jobs).toEqual({ worker: true, concurrency: 4, pollMs: 2000, batch: 32, batchDelayMs: 20, relayDelayMs: 50 });
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '  ', PORT: '' })).toMatchObject({ databaseUrl: null, port: 3000 });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: '70000',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        REDIS_URL: 'nope',
        DATABASE_POOL_SIZE: '-1',
        JOB_WORKER: 'maybe',
        JOB_CONCURRENCY: '0',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(7);
    expect(problems.join('\n')).toMatch(/PORT.*70000/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL.*postgresql:\/\//);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL.*loud/);
    expect(problems.join('\n')).toMatch(/REDIS_URL/);
    expect(problems.join('\n')).toMatch(/DATABASE_POOL_SIZE/);
    expect(problems.join('\n')).toMatch(/JOB_WORKER.*on, off.*maybe/);
    expect(problems.join('\n')).toMatch(/JOB_CONCURRENCY.*1 to 64/);
  });
});
