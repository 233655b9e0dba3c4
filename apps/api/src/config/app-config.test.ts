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
    });
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '  ', PORT: '' })).toMatchObject({ databaseUrl: null, port: 3000 });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', REDIS_URL: 'nope', DATABASE_POOL_SIZE: '-1' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/PORT.*70000/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL.*postgresql:\/\//);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL.*loud/);
    expect(problems.join('\n')).toMatch(/REDIS_URL/);
    expect(problems.join('\n')).toMatch(/DATABASE_POOL_SIZE/);
  });
});
