import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import {
  exactOrigins,
  flag,
  identityIssuers,
  oneOf,
  origins,
  pattern,
  secondsAsMs,
  seconds,
  secondsList,
  secret,
  text,
  trustProxy,
  url,
  whole,
  type SettingKind,
} from './setting-kinds.js';

// Every setting of the server, once: its variable, its kind of value, its default and what it
// does. The AppConfig type, the loader's checks and messages, and docs/configuration.md
// (`npm run docs:config`) all come from this schema.

/** Where docs/configuration.md lists a setting: an operator's first, then the tuning by subject. */
export const SECTIONS = {
  operator: 'Operator settings',
  server: 'Server',
  limits: 'Limits per player and per address',
  accounts: 'Accounts and sign-in',
  live: 'Live connections (graphql-ws and server-sent events)',
  graphql: 'GraphQL requests',
  jobs: 'Jobs, clocks and bots',
  exports: 'Imports and exports',
  webhooks: 'Webhooks',
  notifications: 'Notifications (email, Web Push)',
  push: 'Web Push',
  devtools: 'Developer tools',
} as const;

/** A variable the setting had before, read (with a warning at start) when the new one is unset. */
export interface OldVariable {
  variable: string;
  /** Its value in the new spelling, or undefined when it is not a value of the old one. */
  respell: (raw: string) => string | undefined;
  /** What its value was, for the message when it is not one: "a whole number of milliseconds". */
  expected: string;
}

export interface SettingMeta {
  variable: string;
  section: keyof typeof SECTIONS;
  description: string;
  /** Written as the variable would be, and read like it; absent, the setting is unset or derived. */
  default?: string;
  /** The default as documented when `default` is absent (`5 × RATE_LIMIT_PER_MINUTE`). */
  defaultText?: string;
  values: string;
  respell?: (raw: string) => string | undefined;
  replaces?: OldVariable;
}

export const settingRegistry = z.registry<SettingMeta>();

type Described = Omit<SettingMeta, 'values' | 'respell' | 'default'>;

/** A setting with a default: its value is always there. */
function setting<T>(kind: SettingKind<T>, defaultValue: string, meta: Described) {
  return kind.schema.register(settingRegistry, { ...meta, default: defaultValue, values: kind.values, respell: kind.respell });
}

/** A setting without a default of its own: unset, or derived from others (`defaultText` says how). */
function optional<T>(kind: SettingKind<T>, meta: Described & { defaultText: string }) {
  return kind.schema.optional().register(settingRegistry, { ...meta, values: kind.values, respell: kind.respell });
}

const fromMilliseconds = (variable: string): OldVariable => ({
  variable,
  expected: 'a whole number of milliseconds',
  respell: (raw) => (/^\d+$/.test(raw) ? String(Number(raw) / 1000) : undefined),
});

const fromHours = (variable: string): OldVariable => ({
  variable,
  expected: 'a whole number of hours',
  respell: (raw) => (/^\d+$/.test(raw) ? String(Number(raw) * 3600) : undefined),
});

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const NODE_ENVS = ['development', 'production', 'test'] as const;

/** Outside production, pages served from any port of this machine may call the API. */
export const LOCAL_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

// Defaults that others' defaults are made from.
const RATE_LIMIT_PER_MINUTE = 600;
const WS_MAX_SOCKETS_PER_PLAYER = 5;

export const settingsSchema = z.object({
  nodeEnv: setting(oneOf(NODE_ENVS), 'development', {
    variable: 'NODE_ENV',
    section: 'operator',
    description: '`production` turns GraphiQL, the API docs and introspection off and allows no CORS origin, unless their settings say otherwise; `test` is for the test suite',
  }),
  host: setting(text(), '0.0.0.0', { variable: 'HOST', section: 'operator', description: 'the address the server listens on' }),
  port: setting(whole(0, 65535), '3000', { variable: 'PORT', section: 'operator', description: 'the port the server listens on' }),
  databaseUrl: optional(url(['postgresql:', 'postgres:']), {
    variable: 'DATABASE_URL',
    section: 'operator',
    defaultText: 'unset: an embedded PostgreSQL',
    description: 'the PostgreSQL database to use (`postgresql://user:pass@host:5432/db`); unset, the server starts its own, keeping its data in `DATA_DIR`',
  }),
  databaseReplicaUrl: optional(url(['postgresql:', 'postgres:']), {
    variable: 'DATABASE_REPLICA_URL',
    section: 'server',
    defaultText: 'unset: the history reads go to the primary',
    description:
      "a read replica of the database (streaming replication, hot standby) for the history module's heavy reads: lists and searches of finished games, exports, rating histories and leaderboards; a pool of its own (`DATABASE_POOL_SIZE` connections). They read finished games, which never change, so the replica's lag costs nothing there. Nothing is written through it",
  }),
  dataDir: setting(text(), '.data', {
    variable: 'DATA_DIR',
    section: 'operator',
    description: 'where the embedded PostgreSQL keeps its data (`DATA_DIR/postgres`), when `DATABASE_URL` is unset',
  }),
  databasePoolSize: setting(whole(1, 200), '10', {
    variable: 'DATABASE_POOL_SIZE',
    section: 'operator',
    description: "connections per server process in each of its two pools: the move path's (Postgres.js) and everything else's (Prisma)",
  }),
  redisUrl: optional(url(['redis:', 'rediss:']), {
    variable: 'REDIS_URL',
    section: 'operator',
    defaultText: 'unset',
    description: 'Redis, for several instances or `WORKERS` > 1: rate limits are counted there, and instances tell each other of moves, feed events and revoked tokens over its pub/sub',
  }),
  workers: setting(whole(1, 64), '1', {
    variable: 'WORKERS',
    section: 'operator',
    description: "server processes on this machine sharing the port (Node's cluster module); the embedded PostgreSQL and the migrations run once. More than one needs `REDIS_URL`",
  }),
  logLevel: setting(oneOf(LOG_LEVELS), 'info', { variable: 'LOG_LEVEL', section: 'operator', description: 'logs are JSON lines (pino) on standard output' }),
  trustProxy: setting(trustProxy(), 'off', {
    variable: 'TRUST_PROXY',
    section: 'operator',
    description:
      "Express `trust proxy`, for a server behind a reverse proxy: only then is `X-Forwarded-For` believed for the client's address. Never set it when clients reach the server directly: they could claim any address",
  }),
  corsOrigins: optional(origins(), {
    variable: 'CORS_ORIGINS',
    section: 'operator',
    defaultText: `production: none; else \`${LOCAL_ORIGINS.join(',')}\``,
    description: 'browser origins allowed to call the API (`:*` allows any port)',
  }),
  metricsToken: optional(secret(16), {
    variable: 'METRICS_TOKEN',
    section: 'operator',
    defaultText: 'unset: no `/metrics`',
    description: '`/metrics` answers Prometheus with this secret as a bearer token (16 or more printable characters)',
  }),
  identityIssuers: setting(identityIssuers(), '[]', {
    variable: 'IDENTITY_ISSUERS',
    section: 'operator',
    description:
      "identity providers (Auth0, Keycloak, Supabase, Firebase, your own OpenID provider) whose JWTs are accepted as bearer tokens: each `{issuer, audience, jwksUrl or publicKey, algorithms, subjectClaim, nameClaim, scopes}`; a new user becomes a player on first use. `[]`: none, and a JWT is an unknown token",
  }),
  redisPrefix: setting(pattern(/^[\w:.-]{1,64}$/, '1 to 64 letters, digits, or _ : . -'), 'mizerka:', {
    variable: 'REDIS_PREFIX',
    section: 'server',
    description: 'put before every Redis key and pub/sub channel, so that several deployments can share one Redis',
  }),
  authCacheSeconds: setting(seconds(0, 3600), '10', {
    variable: 'AUTH_CACHE_SECONDS',
    section: 'server',
    description:
      'how long an instance trusts a token it has checked; a revoke acts at once on every instance through Redis, and should that notice be lost, within this time. `0` checks every request',
  }),
  accessTokenSeconds: setting(seconds(60, 86_400), '900', {
    variable: 'ACCESS_TOKEN_SECONDS',
    section: 'accounts',
    description: "how long a session's access token works; the client then trades its refresh token for a new pair",
  }),
  sessionIdleSeconds: setting(seconds(3600, 31_536_000), '2592000', {
    variable: 'SESSION_IDLE_SECONDS',
    section: 'accounts',
    description: "a signed-in session (or an app's grant) not refreshed for this long ends (default 30 days)",
  }),
  sessionsPerPlayer: setting(whole(1, 1000), '50', {
    variable: 'MAX_SESSIONS_PER_PLAYER',
    section: 'accounts',
    description: "signed-in sessions a player may hold at once, and apps' grants as many again; one more ends the least recently used of its kind",
  }),
  passkeys: z.object({
    origins: optional(exactOrigins(), {
      variable: 'WEBAUTHN_ORIGINS',
      section: 'accounts',
      defaultText: 'production: unset, so no passkeys; else the page\'s own origin when it is `http://localhost:PORT`',
      description:
        'the web client\'s origins, where passkeys are made and used (`https://play.example.com`); a passkey belongs to the relying party `WEBAUTHN_RP_ID`, so moving the client to another domain loses them. WebAuthn refuses IP addresses: open a local client at `http://localhost:PORT`',
    }),
    rpId: optional(pattern(/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'a domain name such as example.com'), {
      variable: 'WEBAUTHN_RP_ID',
      section: 'accounts',
      defaultText: 'the host of the first `WEBAUTHN_ORIGINS`',
      description: "the passkeys' relying party: the domain of the web client's origins or one it is under (`example.com` for `https://play.example.com`)",
    }),
    perPlayer: setting(whole(1, 1000), '20', {
      variable: 'MAX_PASSKEYS_PER_PLAYER',
      section: 'accounts',
      description: 'passkeys a player may hold',
    }),
    challengesPerHour: setting(whole(1, 1_000_000), '120', {
      variable: 'PASSKEY_CHALLENGES_PER_IP_PER_HOUR',
      section: 'limits',
      description: 'passkey sign-ups, sign-ins and additions begun from one IP address (IPv6: its /64) per hour',
    }),
  }),
  passwords: z.object({
    failedSignInsPerAccount: setting(whole(1, 10_000), '10', {
      variable: 'FAILED_SIGN_INS_PER_ACCOUNT',
      section: 'accounts',
      description:
        'failed password sign-ins to one account per `SIGN_IN_LOCK_SECONDS`; past them the account refuses passwords, even the right one, until that window ends (a password reset or a passkey still gets in)',
    }),
    failedSignInsPerAddress: setting(whole(1, 100_000), '50', {
      variable: 'FAILED_SIGN_INS_PER_IP',
      section: 'accounts',
      description: 'failed password sign-ins from one IP address (IPv6: its /64) per `SIGN_IN_LOCK_SECONDS`, whatever accounts they name',
    }),
    lockMs: setting(secondsAsMs(1, 86_400), '900', {
      variable: 'SIGN_IN_LOCK_SECONDS',
      section: 'accounts',
      description: 'the window the failed sign-ins are counted in, from the first failure; a lock ends with it and failures while locked do not extend it',
    }),
    hashesAtOnce: setting(whole(1, 64), '2', {
      variable: 'PASSWORD_HASHES_AT_ONCE',
      section: 'accounts',
      description:
        "password hashes (scrypt, 32 MiB and a thread each while it runs) worked at once by an instance; others wait their turn, served address by address, so a flood leaves libuv's thread pool (4 threads unless `UV_THREADPOOL_SIZE`) to files and DNS",
    }),
  }),
  mail: z.object({
    smtpUrl: optional(url(['smtp:', 'smtps:']), {
      variable: 'SMTP_URL',
      section: 'accounts',
      defaultText: 'unset: no mail; setting an email and resetting a password are refused',
      description: 'the mail server for verification and password-reset links (`smtps://user:pass@mail.example.com:465`, or `smtp://…:587` with STARTTLS)',
    }),
    from: setting(text(), 'Mizerka <no-reply@localhost>', {
      variable: 'MAIL_FROM',
      section: 'accounts',
      description: 'the sender of those mails',
    }),
    publicUrl: optional(url(['http:', 'https:']), {
      variable: 'PUBLIC_URL',
      section: 'accounts',
      defaultText: 'unset: `http://localhost:PORT`',
      description: "the web client's address, which links in mail start with (`https://play.example.com`)",
    }),
  }),
  gameCache: setting(flag(), 'true', {
    variable: 'GAME_CACHE',
    section: 'server',
    description:
      "keep each game's latest state in memory, saving a read per move; with several instances the write's version check catches a stale entry and the move is decided again on a fresh read",
  }),
  botThreads: optional(whole(1, 64), {
    variable: 'BOT_THREADS',
    section: 'server',
    defaultText: 'cores − 1, at least 1',
    description: 'worker threads the server bots think on, so the event loop stays free for requests',
  }),
  rateLimitPerMinute: setting(whole(1, 1_000_000), String(RATE_LIMIT_PER_MINUTE), {
    variable: 'RATE_LIMIT_PER_MINUTE',
    section: 'limits',
    description: 'requests per minute per client (the player, else the IP address) on REST and GraphQL; a GraphQL request costs one per root field',
  }),
  addressLimits: z.object({
    requestsPerMinute: optional(whole(1, 10_000_000), {
      variable: 'RATE_LIMIT_PER_IP_PER_MINUTE',
      section: 'limits',
      defaultText: `5 × \`RATE_LIMIT_PER_MINUTE\` (${5 * RATE_LIMIT_PER_MINUTE})`,
      description: "requests per minute from one IP address (IPv6: its /64), its players' and anonymous ones together",
    }),
    registrationsPerHour: setting(whole(1, 1_000_000), '5', {
      variable: 'REGISTRATIONS_PER_IP_PER_HOUR',
      section: 'limits',
      description: 'players registered from one IP address per hour',
    }),
    liveConnections: optional(whole(1, 100_000), {
      variable: 'WS_MAX_SOCKETS_PER_IP',
      section: 'limits',
      defaultText: `5 × \`WS_MAX_SOCKETS_PER_PLAYER\` (${5 * WS_MAX_SOCKETS_PER_PLAYER})`,
      description: '`graphql-ws` sockets and SSE streams open at once from one IP address on an instance, whatever players hold them',
    }),
  }),
  quotas: z.object({
    tokensPerPlayer: setting(whole(1, 10_000), '20', {
      variable: 'MAX_TOKENS_PER_PLAYER',
      section: 'limits',
      description: 'usable (neither revoked nor expired) API tokens a player may hold',
    }),
    openLobbiesPerPlayer: setting(whole(1, 10_000), '5', {
      variable: 'MAX_OPEN_LOBBIES_PER_PLAYER',
      section: 'limits',
      description: 'open lobbies a player may sit in at once, hosting or joined',
    }),
    activeBotGamesPerPlayer: setting(whole(1, 10_000), '5', {
      variable: 'MAX_ACTIVE_BOT_GAMES_PER_PLAYER',
      section: 'limits',
      description: "active games against server bots a player may sit in at once (each costs the server's CPU)",
    }),
  }),
  chat: z.object({
    messagesPerMinute: setting(whole(1, 10_000), '20', {
      variable: 'CHAT_MESSAGES_PER_MINUTE',
      section: 'limits',
      description: 'table-talk messages a player may send a minute, in every room together',
    }),
    moderators: optional(pattern(/^\s*[^,\s]+(\s*,\s*[^,\s]+)*\s*$/, 'player names separated by commas'), {
      variable: 'CHAT_MODERATORS',
      section: 'operator',
      defaultText: 'unset: nobody',
      description: 'the players (by name, any case) who work the queue of reported chat messages, with a token of the `admin` scope',
    }),
  }),
  tournaments: z.object({
    // Not an operator-section setting: that section is kept to about a dozen (configuration-doc.test.ts).
    admins: optional(pattern(/^\s*[^,\s]+(\s*,\s*[^,\s]+)*\s*$/, 'player names separated by commas'), {
      variable: 'TOURNAMENT_ADMINS',
      section: 'accounts',
      defaultText: 'unset: nobody',
      description: 'the players (by name, any case) who may create featured tournaments (`featured: true`), with a token of the `admin` scope',
    }),
  }),
  imports: z.object({
    perPlayerPerHour: setting(whole(1, 100_000), '30', {
      variable: 'IMPORTS_PER_PLAYER_PER_HOUR',
      section: 'exports',
      description: 'game records a player may import an hour (the same record again, answered with its game, counts too)',
    }),
    maxDeals: setting(whole(1, 100_000), '600', {
      variable: 'IMPORT_MAX_DEALS',
      section: 'exports',
      description: 'deals an imported record may have: far more than any game played to its target has',
    }),
    threads: setting(whole(0, 16), '1', {
      variable: 'IMPORT_THREADS',
      section: 'exports',
      description: 'worker threads that replay imported records off the event loop (`0`: on it; the tests of the source run so)',
    }),
  }),
  live: z.object({
    socketsPerPlayer: setting(whole(1, 10_000), String(WS_MAX_SOCKETS_PER_PLAYER), {
      variable: 'WS_MAX_SOCKETS_PER_PLAYER',
      section: 'live',
      description: 'authenticated `graphql-ws` sockets per player on an instance',
    }),
    subscriptionsPerSocket: setting(whole(1, 10_000), '20', {
      variable: 'WS_MAX_SUBSCRIPTIONS_PER_SOCKET',
      section: 'live',
      description: 'subscriptions running at once on one socket',
    }),
    subscriptionsPerPlayer: setting(whole(1, 100_000), '50', {
      variable: 'WS_MAX_SUBSCRIPTIONS_PER_PLAYER',
      section: 'live',
      description: "subscriptions running at once over all of a player's sockets on an instance",
    }),
    maxMessageBytes: setting(whole(1024, 16 * 1024 * 1024), '65536', {
      variable: 'WS_MAX_MESSAGE_BYTES',
      section: 'live',
      description: 'the largest WebSocket message accepted, in bytes; a larger one closes the socket (1009)',
    }),
    idleSeconds: setting(seconds(0, 86_400), '300', {
      variable: 'WS_IDLE_SECONDS',
      section: 'live',
      description: 'a socket with no subscription for this long is closed (4408); `0`: never',
    }),
  }),
  graphqlLimits: z.object({
    maxDepth: setting(whole(2, 100), '8', { variable: 'GRAPHQL_MAX_DEPTH', section: 'graphql', description: 'nesting of a selection (fragments do not count as a level)' }),
    maxAliases: setting(whole(0, 1000), '10', {
      variable: 'GRAPHQL_MAX_ALIASES',
      section: 'graphql',
      description: 'aliased fields in one operation: each alias is one more run of its resolver',
    }),
    maxDirectives: setting(whole(0, 1000), '10', { variable: 'GRAPHQL_MAX_DIRECTIVES', section: 'graphql', description: 'directives in one operation' }),
    maxTokens: setting(whole(100, 100_000), '1000', {
      variable: 'GRAPHQL_MAX_TOKENS',
      section: 'graphql',
      description: 'lexical tokens of the query text, counted while parsing (so text nested thousands deep stops early)',
    }),
    maxCost: setting(whole(100, 10_000_000), '20000', {
      variable: 'GRAPHQL_MAX_COST',
      section: 'graphql',
      description: "graphql-armor's cost of an operation: 1 a scalar, 2 an object, a child level ×1.5, a list field × its page size",
    }),
    maxResponseBytes: setting(whole(1024, 1024 * 1024 * 1024), '2097152', {
      variable: 'GRAPHQL_MAX_RESPONSE_BYTES',
      section: 'graphql',
      description: 'the largest GraphQL response body over HTTP, in bytes',
    }),
  }),
  jobs: z.object({
    worker: setting(flag(), 'true', {
      variable: 'JOB_WORKER',
      section: 'jobs',
      description: '`false`: this instance writes outbox entries but neither relays them nor works jobs (another instance does; nothing is lost)',
    }),
    concurrency: setting(whole(1, 64), '4', { variable: 'JOB_CONCURRENCY', section: 'jobs', description: 'jobs worked at once by this instance' }),
    pollMs: setting(secondsAsMs(0.1, 60), '1', {
      variable: 'JOB_POLL_SECONDS',
      section: 'jobs',
      description: 'how often an instance sweeps the outbox and looks for jobs that are due (new jobs are announced at once)',
      replaces: fromMilliseconds('JOB_POLL_MS'),
    }),
    batch: setting(whole(1, 1000), '32', { variable: 'JOB_BATCH', section: 'jobs', description: 'jobs fetched (and locked) at once; `1` fetches one by one' }),
    batchDelayMs: setting(secondsAsMs(0, 10), '0.02', {
      variable: 'JOB_BATCH_DELAY_SECONDS',
      section: 'jobs',
      description: 'how long a finished job waits to be marked done together with others',
      replaces: fromMilliseconds('JOB_BATCH_DELAY_MS'),
    }),
    relayDelayMs: setting(secondsAsMs(0, 10), '0.05', {
      variable: 'JOB_RELAY_DELAY_SECONDS',
      section: 'jobs',
      description: "how long after a commit its outbox entries wait to be relayed with others' (a relay due on a quiet server begins at once)",
      replaces: fromMilliseconds('JOB_RELAY_DELAY_MS'),
    }),
    botGraceMs: setting(secondsAsMs(0, 600), '2', {
      variable: 'BOT_JOB_GRACE_SECONDS',
      section: 'jobs',
      description: "how long a server bot's durable job waits before it plays the turn: the committing instance plays it at once, the job is there for a crash",
      replaces: fromMilliseconds('BOT_JOB_GRACE_MS'),
    }),
  }),
  // What the daily retention job (apps/api/src/retention) deletes; finished games are kept forever.
  retention: z.object({
    feedSeconds: setting(seconds(0, 315_360_000), '7776000', {
      variable: 'FEED_RETENTION_SECONDS',
      section: 'jobs',
      description:
        "players' feed events (event streams, `myEvents`, what webhooks fan out) older than this are deleted (default: 90 days), by whole months: a month's partition goes once its newest possible event is this old, so an event stays up to a month longer; `0` keeps them forever. A stream resuming from a deleted event starts at the oldest event kept",
    }),
    webhookDeliverySeconds: setting(seconds(0, 315_360_000), '2592000', {
      variable: 'WEBHOOK_DELIVERY_RETENTION_SECONDS',
      section: 'jobs',
      description: 'delivered and failed webhook deliveries, with their attempts, are deleted this long after they were made (default: 30 days); `0` keeps them',
    }),
    failedJobSeconds: setting(seconds(0, 315_360_000), '2592000', {
      variable: 'FAILED_JOB_RETENTION_SECONDS',
      section: 'jobs',
      description: 'jobs that failed every attempt are deleted this long after their last attempt (default: 30 days); `0` keeps them',
    }),
    expiredSeconds: setting(seconds(0, 315_360_000), '604800', {
      variable: 'EXPIRED_RETENTION_SECONDS',
      section: 'jobs',
      description:
        'ended sign-ins (sessions expired or revoked, with their tokens), used refresh tokens, expired or revoked access tokens, OAuth requests and codes, passkey challenges and email links are deleted this long after they ended (default: 7 days); `0` keeps them',
    }),
    noticeSeconds: setting(seconds(0, 315_360_000), '604800', {
      variable: 'NOTICE_RETENTION_SECONDS',
      section: 'jobs',
      description:
        'notices (the Web Push and email notifications of a player who is away) sent, dropped or handed to Web Push are deleted this long after that (default: 7 days); an email waiting for its digest stays; `0` keeps them',
    }),
    closedLobbySeconds: setting(seconds(0, 315_360_000), '2592000', {
      variable: 'CLOSED_LOBBY_RETENTION_SECONDS',
      section: 'jobs',
      description:
        'lobbies closed without a game (every player left) are deleted, with their seats and table talk, this long after they closed (default: 30 days), unless a report on their talk is still open; a lobby that started a game is kept with it; `0` keeps them',
    }),
    feedArchiveDir: optional(text(), {
      variable: 'FEED_ARCHIVE_DIR',
      section: 'jobs',
      defaultText: 'unset: months are dropped without a copy',
      description:
        "a folder where the retention job writes each month of players' feed events before dropping it (`player_events_y2026m01.csv.gz`: `COPY … CSV HEADER`, gzip, written then renamed, so a file there is whole); a month whose copy fails stays (detached) until a later run copies it. Relative to the working directory",
    }),
    batch: setting(whole(10, 100_000), '1000', {
      variable: 'RETENTION_BATCH',
      section: 'jobs',
      description: 'rows the retention job deletes per statement (each its own transaction, so no delete holds locks or a snapshot for long)',
    }),
    hourUtc: setting(whole(0, 23), '3', {
      variable: 'RETENTION_HOUR_UTC',
      section: 'jobs',
      description: 'the hour (UTC) the daily retention job runs at; one instance runs it, however many there are',
    }),
  }),
  // The job that compacts finished games' event logs (apps/api/src/compaction).
  compaction: z.object({
    afterSeconds: setting(seconds(0, 315_360_000), '86400', {
      variable: 'COMPACT_AFTER_SECONDS',
      section: 'jobs',
      description:
        "a finished game's event log rows become one compact row this long after the game's end (default: a day); every read of the game answers the same, and a move retried under its idempotency key still gets its first answer. `0` never compacts",
    }),
    batch: setting(whole(1, 10_000), '100', {
      variable: 'COMPACT_BATCH',
      section: 'jobs',
      description: 'games the compaction job looks at per batch (each game compacted in its own transaction)',
    }),
  }),
  clocks: z.object({
    minMoveSeconds: setting(seconds(1, 86_400), '60', {
      variable: 'MIN_MOVE_SECONDS',
      section: 'jobs',
      description: "the shortest time per move a lobby's move clock may have (the longest is 14 days); tests and benchmarks lower it",
    }),
    warningPercent: setting(whole(0, 90), '25', {
      variable: 'DEADLINE_WARNING_PERCENT',
      section: 'jobs',
      description: "a `deadlineNear` event goes to the player to move when this share (%) of the turn's time is left; `0`: none",
    }),
  }),
  vacations: z.object({
    allowanceDays: setting(whole(0, 366), '30', {
      variable: 'VACATION_DAYS_PER_YEAR',
      section: 'jobs',
      description:
        "the vacation a player may take in a calendar year (UTC), in whole days: each started day of a vacation counts once; while away, their clocks stop in the timed games that allow it; `0`: no vacation",
    }),
  }),
  streams: z.object({
    keepAliveMs: setting(secondsAsMs(1, 3600), '20', {
      variable: 'SSE_KEEPALIVE_SECONDS',
      section: 'live',
      description: 'how often an idle server-sent event stream gets a `: keep-alive` comment line, so proxies and clients see it alive',
    }),
    feedPollMs: setting(secondsAsMs(0.1, 600), '5', {
      variable: 'FEED_POLL_SECONDS',
      section: 'live',
      description: "how often a player's feed follower re-reads without a notice (a lost notice costs only this much latency)",
      replaces: fromMilliseconds('FEED_POLL_MS'),
    }),
  }),
  exports: z.object({
    perIp: setting(whole(1, 10_000), '4', {
      variable: 'EXPORT_MAX_PER_IP',
      section: 'exports',
      description: 'NDJSON exports (`GET /players/{name}/games/export`) open at once from one client address (IPv6: its /64) on an instance',
    }),
    perPlayer: setting(whole(1, 10_000), '2', {
      variable: 'EXPORT_MAX_PER_PLAYER',
      section: 'exports',
      description: 'exports open at once by one signed-in caller, from any address, on an instance',
    }),
    idleMs: setting(secondsAsMs(1, 3600), '30', {
      variable: 'EXPORT_IDLE_SECONDS',
      section: 'exports',
      description: 'an export whose client takes nothing for this long is cut off',
    }),
    pageSize: setting(whole(1, 1000), '50', {
      variable: 'EXPORT_PAGE_SIZE',
      section: 'exports',
      description: 'records an export reads from the database at a time; the connection goes back to the pool before they are written',
    }),
  }),
  webhooks: z.object({
    endpointsPerPlayer: setting(whole(1, 1000), '10', {
      variable: 'WEBHOOK_MAX_ENDPOINTS_PER_PLAYER',
      section: 'webhooks',
      description: 'webhook endpoints a player may hold',
    }),
    // 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 27.6 hours, as Standard Webhooks suggests.
    retrySchedule: setting(secondsList(20, 1, 604_800), '5,300,1800,7200,18000,36000,36000', {
      variable: 'WEBHOOK_RETRY_SCHEDULE',
      section: 'webhooks',
      description: 'seconds before each retry of a failed delivery; after the last it is `failed`',
    }),
    timeoutMs: setting(secondsAsMs(1, 60), '5', {
      variable: 'WEBHOOK_TIMEOUT_SECONDS',
      section: 'webhooks',
      description: 'the whole of one delivery attempt (DNS, connection, request, answer)',
    }),
    disableAfterMs: setting(secondsAsMs(3600, 31_536_000), '432000', {
      variable: 'WEBHOOK_DISABLE_AFTER_SECONDS',
      section: 'webhooks',
      description: 'an endpoint whose deliveries have all failed for this long (default: 5 days) is disabled',
      replaces: fromHours('WEBHOOK_DISABLE_AFTER_HOURS'),
    }),
    sweepMs: setting(secondsAsMs(1, 3600), '10', {
      variable: 'WEBHOOK_SWEEP_SECONDS',
      section: 'webhooks',
      description: 'how often every endpoint is checked for feed events not yet fanned out (new ones on this instance go out at once)',
    }),
    allowHttpLoopback: setting(flag(), 'false', {
      variable: 'WEBHOOK_ALLOW_HTTP_LOOPBACK',
      section: 'operator',
      description: 'local development and tests only: webhooks may use `http:` and loopback addresses (127.0.0.0/8, ::1). Never in production',
    }),
  }),
  notifications: z.object({
    sweepMs: setting(secondsAsMs(1, 3600), '30', {
      variable: 'NOTIFY_SWEEP_SECONDS',
      section: 'notifications',
      description: "how often every routed player's feed is checked for events not yet turned into notices (new ones on this instance are routed at once)",
    }),
    maxAgeMs: setting(secondsAsMs(60, 604_800), '3600', {
      variable: 'NOTIFY_MAX_AGE_SECONDS',
      section: 'notifications',
      description: 'a feed event older than this when first routed is not notified (news only: a player first seen, or a backlog after an outage)',
    }),
    activeMinutes: setting(whole(0, 120), '5', {
      variable: 'NOTIFY_ACTIVE_MINUTES',
      section: 'notifications',
      description: "a player's default for \"not while active\": nothing is sent while they hold a live connection or made a request this many minutes ago or less",
    }),
    digestMinutes: setting(whole(15, 10_080), '240', {
      variable: 'NOTIFY_DIGEST_MINUTES',
      section: 'notifications',
      description: "a player's default digest interval: at most one digest email this often",
    }),
  }),
  push: z.object({
    vapidPublicKey: optional(pattern(/^[A-Za-z0-9_-]{87}$/, 'an uncompressed P-256 public key in base64url (87 characters), as `npx web-push generate-vapid-keys` prints it'), {
      variable: 'VAPID_PUBLIC_KEY',
      section: 'push',
      defaultText: 'unset: a key pair made at first start and kept in the database',
      description: "the server's VAPID public key (RFC 8292), which browsers subscribe with; set it with `VAPID_PRIVATE_KEY` or neither",
    }),
    vapidPrivateKey: optional(pattern(/^[A-Za-z0-9_-]{43}$/, 'a P-256 private key in base64url (43 characters)'), {
      variable: 'VAPID_PRIVATE_KEY',
      section: 'push',
      defaultText: 'unset: see `VAPID_PUBLIC_KEY`',
      description: 'the private half of that key pair: it signs every push request',
    }),
    vapidSubject: optional(url(['mailto:', 'https:']), {
      variable: 'VAPID_SUBJECT',
      section: 'push',
      defaultText: '`mailto:` the address of `MAIL_FROM`, else `PUBLIC_URL` when it is `https:`',
      description: 'how a push service reaches the operator about this server\'s pushes (`mailto:ops@example.com` or an `https:` page)',
    }),
    devicesPerPlayer: setting(whole(1, 100), '10', {
      variable: 'PUSH_MAX_DEVICES_PER_PLAYER',
      section: 'push',
      description: 'browsers (push subscriptions) a player may be notified on',
    }),
    timeoutMs: setting(secondsAsMs(1, 60), '10', {
      variable: 'PUSH_TIMEOUT_SECONDS',
      section: 'push',
      description: 'the whole of one send to a push service (DNS, connection, request, answer); a send that takes longer is retried',
    }),
    ttlSeconds: setting(seconds(0, 2_419_200), '86400', {
      variable: 'PUSH_TTL_SECONDS',
      section: 'push',
      description: 'how long a push service keeps a notification for a device that is off (its `TTL`); a turn is rarely news after a day',
    }),
    allowHttpLoopback: setting(flag(), 'false', {
      variable: 'PUSH_ALLOW_HTTP_LOOPBACK',
      section: 'push',
      description: 'tests and local development only: push endpoints may use `http:` and loopback addresses (127.0.0.0/8, ::1). Refused in production',
    }),
  }),
  graphiql: optional(flag(), {
    variable: 'GRAPHIQL',
    section: 'devtools',
    defaultText: '`true`; `false` in production',
    description: 'the GraphiQL page at `GET /graphql`',
  }),
  apiDocs: optional(flag(), {
    variable: 'API_DOCS',
    section: 'devtools',
    defaultText: '`true`; `false` in production',
    description: 'Swagger UI and the OpenAPI document under `/api/docs`',
  }),
  introspection: optional(flag(), {
    variable: 'INTROSPECTION',
    section: 'devtools',
    defaultText: '`true`; `false` in production',
    description: 'GraphQL introspection queries (GraphiQL needs them)',
  }),
});

type Settings = z.output<typeof settingsSchema>;

/** What the variables leave to others: defaults that depend on other settings, unset as null. */
function derive(s: Settings, ctx: z.core.$RefinementCtx<Settings>) {
  const production = s.nodeEnv === 'production';
  // Processes of one machine tell each other of moves and revokes over Redis; without it a
  // subscriber on one process would hear of another's moves only at its next re-read.
  if (s.workers > 1 && s.redisUrl === undefined) {
    ctx.issues.push({
      code: 'custom',
      message: `WORKERS=${s.workers} needs REDIS_URL: the processes tell each other of moves and revoked tokens through Redis`,
      input: s.workers,
    });
  }
  // A passkey's relying party is a domain that every one of the web client's origins is on.
  const passkeyOrigins = s.passkeys.origins ?? null;
  const rpId = s.passkeys.rpId ?? (passkeyOrigins ? new URL(passkeyOrigins[0]).hostname : null);
  if (s.passkeys.rpId !== undefined && passkeyOrigins === null) {
    ctx.issues.push({ code: 'custom', message: 'WEBAUTHN_RP_ID needs WEBAUTHN_ORIGINS: the web client origins that passkeys are used on', input: s.passkeys.rpId });
  }
  if (rpId !== null && isIP(rpId.replace(/^\[|\]$/g, '')) !== 0) {
    ctx.issues.push({ code: 'custom', message: `WEBAUTHN_ORIGINS: passkeys need a domain name, not the address ${rpId} (use localhost)`, input: rpId });
  }
  for (const origin of passkeyOrigins ?? []) {
    const host = new URL(origin).hostname;
    if (rpId !== null && host !== rpId && !host.endsWith(`.${rpId}`)) {
      ctx.issues.push({ code: 'custom', message: `WEBAUTHN_ORIGINS: ${origin} is not on WEBAUTHN_RP_ID ${rpId}`, input: origin });
    }
  }
  // A push endpoint is a URL a client chooses: in production only public https: addresses.
  if (production && s.push.allowHttpLoopback) {
    ctx.issues.push({ code: 'custom', message: 'PUSH_ALLOW_HTTP_LOOPBACK=true is refused in production: push endpoints must be public https: URLs', input: true });
  }
  if ((s.push.vapidPublicKey === undefined) !== (s.push.vapidPrivateKey === undefined)) {
    ctx.issues.push({ code: 'custom', message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all', input: s.push.vapidPublicKey });
  }
  return {
    ...s,
    databaseUrl: s.databaseUrl ?? null,
    databaseReplicaUrl: s.databaseReplicaUrl ?? null,
    redisUrl: s.redisUrl ?? null,
    metricsToken: s.metricsToken ?? null,
    retention: { ...s.retention, feedArchiveDir: s.retention.feedArchiveDir ?? null },
    // An address's budgets default to a few players' worth: a household or an office behind one NAT.
    addressLimits: {
      requestsPerMinute: s.addressLimits.requestsPerMinute ?? Math.min(5 * s.rateLimitPerMinute, 10_000_000),
      registrationsPerHour: s.addressLimits.registrationsPerHour,
      liveConnections: s.addressLimits.liveConnections ?? 5 * s.live.socketsPerPlayer,
    },
    chat: {
      messagesPerMinute: s.chat.messagesPerMinute,
      // Compared with players' name keys (names are unique regardless of case).
      moderators: (s.chat.moderators ?? '').split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== ''),
    },
    tournaments: {
      // Compared with players' name keys, as the chat moderators are.
      admins: (s.tournaments.admins ?? '').split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== ''),
    },
    corsOrigins: s.corsOrigins ?? (production ? [] : LOCAL_ORIGINS),
    passkeys: { ...s.passkeys, origins: passkeyOrigins, rpId },
    push: {
      ...s.push,
      vapidKeys: s.push.vapidPublicKey !== undefined && s.push.vapidPrivateKey !== undefined ? { publicKey: s.push.vapidPublicKey, privateKey: s.push.vapidPrivateKey } : null,
      vapidSubject: s.push.vapidSubject ?? vapidSubjectOf(s.mail.from, s.mail.publicUrl),
    },
    // Developer tools are on outside production, off in production unless asked for.
    graphiql: s.graphiql ?? !production,
    apiDocs: s.apiDocs ?? !production,
    introspection: s.introspection ?? !production,
    // One core left to the event loop (and PostgreSQL).
    botThreads: s.botThreads ?? Math.max(1, availableParallelism() - 1),
  };
}

export const appConfigSchema = settingsSchema.transform(derive);

/**
 * Whom a push service may contact about this server's pushes (RFC 8292's `sub`): the address of
 * MAIL_FROM (`Mizerka <no-reply@example.com>`), else PUBLIC_URL when it is https:, else null (no
 * subject: the push services that insist on one refuse the send).
 */
function vapidSubjectOf(mailFrom: string, publicUrl: string | undefined): string | null {
  const address = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(mailFrom)?.[1] ?? (/^[^<>\s]+@[^<>\s]+$/.test(mailFrom.trim()) ? mailFrom.trim() : null);
  if (address !== null) return `mailto:${address}`;
  return publicUrl?.startsWith('https:') ? publicUrl : null;
}
