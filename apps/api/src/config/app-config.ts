import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';

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
  /** Put before every Redis key and channel, so that several deployments can share one Redis. */
  redisPrefix: string;
  /**
   * Server processes on this machine (Node's cluster module, sharing the port); the embedded
   * PostgreSQL and the migrations run once, in the primary. More than one needs REDIS_URL.
   */
  workers: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * Requests per minute per client (the authenticated player, else the IP address) on the REST and
   * GraphQL surfaces; a GraphQL request costs one per root field.
   */
  rateLimitPerMinute: number;
  /**
   * What one IP address (an IPv6 address by its /64) may do whatever players it holds, so that
   * registering accounts does not multiply its budgets.
   */
  addressLimits: {
    /** Requests per minute from the address, its players' and anonymous ones together (priced as rateLimitPerMinute). */
    requestsPerMinute: number;
    /** Players registered from the address per hour. */
    registrationsPerHour: number;
    /** graphql-ws sockets and SSE streams open at once from the address on an instance. */
    liveConnections: number;
  };
  /**
   * Express `trust proxy`: false (the socket's address is the client's), a number of proxy hops, or
   * the addresses/subnets of trusted proxies; only then is X-Forwarded-For believed.
   */
  trustProxy: false | number | string[];
  /** Origins allowed by CORS: `scheme://host[:port]` (port may be `*`), or `*` for any. */
  corsOrigins: string[];
  /** The GraphiQL page at GET /graphql. */
  graphiql: boolean;
  /** Swagger UI and the OpenAPI document under /api/docs. */
  apiDocs: boolean;
  /** GraphQL introspection queries. */
  introspection: boolean;
  /** How long an instance trusts a token it has checked (0: check every request). */
  authCacheSeconds: number;
  /**
   * Keep each game's latest state in memory, saving a read per move. With several instances an
   * entry may be stale: the write's version check catches it and the move is decided again on a
   * fresh read (measured cheaper than reading every time: README, "Several instances").
   */
  gameCache: boolean;
  /**
   * Worker threads the server bots think on; the event loop stays free for requests. Default: one
   * core left to the event loop (and PostgreSQL), at least one thread.
   */
  botThreads: number;
  /** Caps on what one player may hold open (GraphQL and REST alike). */
  quotas: {
    /** Usable (neither revoked nor expired) API tokens per player. */
    tokensPerPlayer: number;
    /** Open lobbies a player sits in at once (hosting or joined). */
    openLobbiesPerPlayer: number;
    /** Active games against server bots a player sits in at once: each costs the server's CPU. */
    activeBotGamesPerPlayer: number;
  };
  /** Uploads of game records (POST /games/import, importGame). */
  imports: {
    /** Records a player may import per hour (a record imported again, answered with its game, counts too). */
    perPlayerPerHour: number;
    /** Deals a record may have: far more than any game played to its target has. */
    maxDeals: number;
    /** Worker threads that replay records off the event loop (0: on it, for tests of the source). */
    threads: number;
  };
  /** Live GraphQL subscriptions over graphql-ws. */
  live: {
    socketsPerPlayer: number;
    subscriptionsPerSocket: number;
    subscriptionsPerPlayer: number;
    /** The largest WebSocket message accepted, in bytes; a larger one closes the socket (1009). */
    maxMessageBytes: number;
    /** A socket with no subscription for this long is closed (0: never). */
    idleSeconds: number;
  };
  /** What one GraphQL request may ask for (HTTP and graphql-ws); over a limit: QUERY_TOO_COMPLEX. */
  graphqlLimits: {
    /** Nesting of selections. */
    maxDepth: number;
    /** Aliased fields in one operation: each alias is one more run of its resolver. */
    maxAliases: number;
    /** Directives in one operation. */
    maxDirectives: number;
    /** Lexical tokens of the query text; bounds parsing too (a nesting level is at least two tokens). */
    maxTokens: number;
    /** graphql-armor's cost: 1 a scalar, 2 an object, children ×1.5 a level, a list field × its page size. */
    maxCost: number;
    /** Bytes of one GraphQL response body over HTTP. */
    maxResponseBytes: number;
  };
  /** The bearer token /metrics asks for; null: no /metrics. */
  metricsToken: string | null;
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
    /** How long a bot's job waits for the committing instance to play the turn itself, in ms. */
    botGraceMs: number;
  };
  /** Move clocks of timed games. */
  clocks: {
    /** The shortest time per move a lobby may set (tests use seconds; the longest is 14 days). */
    minMoveSeconds: number;
    /** A `deadlineNear` event goes out when this share (%) of the turn's time is left; 0: none. */
    warningPercent: number;
  };
  /** Server-sent event streams (/me/events, /games/:id/events/stream) and the players' feed followers. */
  streams: {
    /** A comment line is written this often on an idle stream, so proxies and clients see it alive. */
    keepAliveMs: number;
    /** How often a player's feed follower re-reads without a notice (a lost notice costs only this much latency). */
    feedPollMs: number;
  };
  /** The NDJSON export of a player's games (GET /players/{name}/games/export), against clients that stall or pile up. */
  exports: {
    /** Exports open at once from one client address (IPv6: its /64), signed in or not. */
    perIp: number;
    /** Exports open at once by one signed-in caller, from any address. */
    perPlayer: number;
    /** An export whose client takes nothing for this long is cut off, in ms. */
    idleMs: number;
    /** Records read from the database at a time; the connection goes back to the pool before they are written. */
    pageSize: number;
  };
  /** Signed webhooks (Standard Webhooks): endpoints, retries and the address rules. */
  webhooks: {
    /** Endpoints one player may hold. */
    endpointsPerPlayer: number;
    /** Seconds to wait before each retry of a failed delivery; after the last, it is `failed`. */
    retrySchedule: number[];
    /** The whole of one attempt (DNS, connect, request, answer) in ms. */
    timeoutMs: number;
    /** An endpoint whose deliveries have all failed for this long (ms) is disabled. */
    disableAfterMs: number;
    /** How often every endpoint is checked for feed events not yet fanned out (new ones wake it at once). */
    sweepMs: number;
    /** Tests and local development only: allow `http:` and loopback addresses (127.0.0.0/8, ::1). */
    allowHttpLoopback: boolean;
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

  const secret = (name: string, minLength: number) => {
    const raw = text(name);
    if (raw === undefined) return null;
    if (raw.length < minLength || !/^[\x21-\x7e]+$/.test(raw)) {
      problems.push(`${name} must be at least ${minLength} printable characters without spaces`);
      return null;
    }
    return raw;
  };

  const config: AppConfig = {
    nodeEnv: oneOf('NODE_ENV', NODE_ENVS, 'development'),
    host: text('HOST') ?? '0.0.0.0',
    port: integer('PORT', 3000, 0, 65535),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: text('DATA_DIR') ?? '.data',
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 200),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: redisPrefix(text('REDIS_PREFIX'), problems),
    workers: integer('WORKERS', 1, 1, 64),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    addressLimits: { requestsPerMinute: 0, registrationsPerHour: integer('REGISTRATIONS_PER_IP_PER_HOUR', 5, 1, 1_000_000), liveConnections: 0 },
    trustProxy: trustProxy(text('TRUST_PROXY'), problems),
    corsOrigins: [],
    graphiql: false,
    apiDocs: false,
    introspection: false,
    authCacheSeconds: integer('AUTH_CACHE_SECONDS', 10, 0, 3600),
    gameCache: false,
    botThreads: integer('BOT_THREADS', Math.max(1, availableParallelism() - 1), 1, 64),
    quotas: {
      tokensPerPlayer: integer('MAX_TOKENS_PER_PLAYER', 20, 1, 10_000),
      openLobbiesPerPlayer: integer('MAX_OPEN_LOBBIES_PER_PLAYER', 5, 1, 10_000),
      activeBotGamesPerPlayer: integer('MAX_ACTIVE_BOT_GAMES_PER_PLAYER', 5, 1, 10_000),
    },
    imports: {
      perPlayerPerHour: integer('IMPORTS_PER_PLAYER_PER_HOUR', 30, 1, 100_000),
      maxDeals: integer('IMPORT_MAX_DEALS', 600, 1, 100_000),
      threads: integer('IMPORT_THREADS', 1, 0, 16),
    },
    live: {
      socketsPerPlayer: integer('WS_MAX_SOCKETS_PER_PLAYER', 5, 1, 10_000),
      subscriptionsPerSocket: integer('WS_MAX_SUBSCRIPTIONS_PER_SOCKET', 20, 1, 10_000),
      subscriptionsPerPlayer: integer('WS_MAX_SUBSCRIPTIONS_PER_PLAYER', 50, 1, 100_000),
      maxMessageBytes: integer('WS_MAX_MESSAGE_BYTES', 65_536, 1024, 16 * 1024 * 1024),
      idleSeconds: integer('WS_IDLE_SECONDS', 300, 0, 86_400),
    },
    graphqlLimits: {
      maxDepth: integer('GRAPHQL_MAX_DEPTH', 8, 2, 100),
      maxAliases: integer('GRAPHQL_MAX_ALIASES', 10, 0, 1000),
      maxDirectives: integer('GRAPHQL_MAX_DIRECTIVES', 10, 0, 1000),
      maxTokens: integer('GRAPHQL_MAX_TOKENS', 1000, 100, 100_000),
      maxCost: integer('GRAPHQL_MAX_COST', 20_000, 100, 10_000_000),
      maxResponseBytes: integer('GRAPHQL_MAX_RESPONSE_BYTES', 2 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    },
    metricsToken: secret('METRICS_TOKEN', 16),
    jobs: {
      worker: oneOf('JOB_WORKER', ['on', 'off'] as const, 'on') === 'on',
      concurrency: integer('JOB_CONCURRENCY', 4, 1, 64),
      pollMs: integer('JOB_POLL_MS', 1000, 100, 60_000),
      batch: integer('JOB_BATCH', 32, 1, 1000),
      batchDelayMs: integer('JOB_BATCH_DELAY_MS', 20, 0, 10_000),
      relayDelayMs: integer('JOB_RELAY_DELAY_MS', 50, 0, 10_000),
      botGraceMs: integer('BOT_JOB_GRACE_MS', 2000, 0, 600_000),
    },
    clocks: {
      minMoveSeconds: integer('MIN_MOVE_SECONDS', 60, 1, 86_400),
      warningPercent: integer('DEADLINE_WARNING_PERCENT', 25, 0, 90),
    },
    streams: {
      keepAliveMs: integer('SSE_KEEPALIVE_SECONDS', 20, 1, 3600) * 1000,
      feedPollMs: integer('FEED_POLL_MS', 5000, 100, 600_000),
    },
    exports: {
      perIp: integer('EXPORT_MAX_PER_IP', 4, 1, 10_000),
      perPlayer: integer('EXPORT_MAX_PER_PLAYER', 2, 1, 10_000),
      idleMs: integer('EXPORT_IDLE_SECONDS', 30, 1, 3600) * 1000,
      pageSize: integer('EXPORT_PAGE_SIZE', 50, 1, 1000),
    },
    webhooks: {
      endpointsPerPlayer: integer('WEBHOOK_MAX_ENDPOINTS_PER_PLAYER', 10, 1, 1000),
      retrySchedule: retrySchedule(text('WEBHOOK_RETRY_SCHEDULE'), problems),
      timeoutMs: integer('WEBHOOK_TIMEOUT_SECONDS', 5, 1, 60) * 1000,
      disableAfterMs: integer('WEBHOOK_DISABLE_AFTER_HOURS', 120, 1, 24 * 365) * 3_600_000,
      sweepMs: integer('WEBHOOK_SWEEP_SECONDS', 10, 1, 3600) * 1000,
      allowHttpLoopback: ['on', 'true'].includes(oneOf('WEBHOOK_ALLOW_HTTP_LOOPBACK', ['on', 'off', 'true', 'false'] as const, 'off')),
    },
  };
  // Developer tools are on outside production, off in production unless asked for.
  const onOff = (name: string) => oneOf(name, ['on', 'off'] as const, config.nodeEnv === 'production' ? 'off' : 'on') === 'on';
  config.graphiql = onOff('GRAPHIQL');
  config.apiDocs = onOff('API_DOCS');
  config.introspection = onOff('INTROSPECTION');
  config.corsOrigins = corsOrigins(text('CORS_ORIGINS'), config.nodeEnv, problems);
  // An address's budgets default to a few players' worth: a household or an office behind one NAT.
  config.addressLimits.requestsPerMinute = integer('RATE_LIMIT_PER_IP_PER_MINUTE', Math.min(5 * config.rateLimitPerMinute, 10_000_000), 1, 10_000_000);
  config.addressLimits.liveConnections = integer('WS_MAX_SOCKETS_PER_IP', 5 * config.live.socketsPerPlayer, 1, 100_000);
  config.gameCache = oneOf('GAME_CACHE', ['on', 'off'] as const, 'on') === 'on';
  // Processes of one machine tell each other of moves and revokes over Redis; without it a
  // subscriber on one process would hear of another's moves only at its next re-read.
  if (config.workers > 1 && config.redisUrl === null) {
    problems.push(`WORKERS=${config.workers} needs REDIS_URL: the processes tell each other of moves and revoked tokens through Redis`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function redisPrefix(raw: string | undefined, problems: string[]): string {
  if (raw === undefined) return 'mizerka:';
  if (/^[\w:.-]{1,64}$/.test(raw)) return raw;
  problems.push(`REDIS_PREFIX must be 1 to 64 letters, digits, or _ : . - (got "${raw}")`);
  return 'mizerka:';
}

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 27.6 hours, as Standard Webhooks suggests. */
const WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

function retrySchedule(raw: string | undefined, problems: string[]): number[] {
  if (raw === undefined) return WEBHOOK_RETRY_SCHEDULE;
  if (raw === 'none') return [];
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length <= 20 && parts.every((p) => /^\d{1,6}$/.test(p) && Number(p) >= 1 && Number(p) <= 604_800)) return parts.map(Number);
  problems.push(`WEBHOOK_RETRY_SCHEDULE must be up to 20 comma-separated seconds from 1 to 604800, or none (got "${raw}")`);
  return WEBHOOK_RETRY_SCHEDULE;
}

/** Outside production, pages served from any port of this machine may call the API. */
const LOCAL_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

function corsOrigins(raw: string | undefined, nodeEnv: AppConfig['nodeEnv'], problems: string[]): string[] {
  if (raw === undefined) return nodeEnv === 'production' ? [] : LOCAL_ORIGINS;
  if (raw === 'none') return [];
  const origins = raw.split(',').map((o) => o.trim()).filter((o) => o !== '');
  const bad = origins.filter((o) => o !== '*' && !/^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:(\d{1,5}|\*))?$/.test(o));
  if (bad.length > 0) {
    problems.push(`CORS_ORIGINS must be a comma-separated list of origins such as https://app.example.com or http://localhost:*, or * or none (got "${bad.join(', ')}")`);
  }
  return origins;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(raw: string | undefined, problems: string[]): AppConfig['trustProxy'] {
  if (raw === undefined || raw === 'off') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
  } else {
    const list = raw.split(',').map((a) => a.trim()).filter((a) => a !== '');
    const valid = (entry: string) => {
      if (PROXY_NAMES.includes(entry)) return true;
      const [address, bits, ...more] = entry.split('/');
      const family = isIP(address);
      if (family === 0 || more.length > 0) return false;
      return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
    };
    if (list.length > 0 && list.every(valid)) return list;
  }
  problems.push(
    `TRUST_PROXY must be off, a number of proxy hops from 1 to 10, or a comma-separated list of proxy addresses or subnets (got "${raw}")`,
  );
  return false;
}
