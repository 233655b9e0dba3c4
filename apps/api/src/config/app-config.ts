// Configuration comes from the environment and is checked once at start-up, so a typo in a
// variable stops the server with a message instead of failing on the first request.
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** Unset: an embedded PostgreSQL is started with its data in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  databasePoolSize: number;
  redisUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Requests per minute per client on the REST and GraphQL surfaces. */
  rateLimitPerMinute: number;
  /** How long an instance trusts a token it has checked (0: check every request). */
  authCacheSeconds: number;
  /**
   * Keep each game's latest state in memory, saving a read per move. Right for a single instance;
   * with several (REDIS_URL set) a move would often find another instance's write first.
   */
  gameCache: boolean;
  /** The job queue that runs what follows a move (the outbox consumer). */
  jobs: {
    /** Work jobs in this process; off leaves them to other instances (they stay queued, nothing is lost). */
    worker: boolean;
    /** Jobs run at once by this process. */
    concurrency: number;
    /** How often to look for jobs that are due (new ones are announced at once). */
    pollMs: number;
    /** Jobs fetched (and locked) at once; 1 fetches one by one. */
    batch: number;
    /** How long a finished job waits to be marked done together with others, in ms. */
    batchDelayMs: number;
    /** How long after a commit its outbox rows wait to be relayed with others', in ms. */
    relayDelayMs: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const problems: string[] = [];
  const text = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };
  const url = (name: string, protocols: string[]) => {
    const raw = text(name);
    if (raw === undefined) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      problems.push(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
      return null;
    }
  };

  const config: AppConfig = {
    nodeEnv: oneOf('NODE_ENV', NODE_ENVS, 'development'),
    host: text('HOST') ?? '0.0.0.0',
    port: integer('PORT', 3000, 0, 65535),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: text('DATA_DIR') ?? '.data',
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 200),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    authCacheSeconds: integer('AUTH_CACHE_SECONDS', 10, 0, 3600),
    gameCache: false,
    jobs: {
      worker: oneOf('JOB_WORKER', ['on', 'off'] as const, 'on') === 'on',
      concurrency: integer('JOB_CONCURRENCY', 4, 1, 64),
      pollMs: integer('JOB_POLL_MS', 2000, 100, 60_000),
      batch: integer('JOB_BATCH', 32, 1, 1000),
      batchDelayMs: integer('JOB_BATCH_DELAY_MS', 20, 0, 10_000),
      relayDelayMs: integer('JOB_RELAY_DELAY_MS', 50, 0, 10_000),
    },
  };
  config.gameCache = oneOf('GAME_CACHE', ['on', 'off'] as const, config.redisUrl === null ? 'on' : 'off') === 'on';
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
