import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readConfig, SETTINGS } from './app-config.js';

describe('loadConfig', () => {
  it('gives sensible defaults with an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      databaseReplicaUrl: null,
      dataDir: '.data',
      logLevel: 'info',
      redisUrl: null,
    });
  });

  it('reads every variable', () => {
    const env = {
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://u:p@db:5432/mizerka',
      DATABASE_REPLICA_URL: 'postgresql://u:p@replica:5432/mizerka',
      DATA_DIR: '/var/lib/mizerka',
      DATABASE_POOL_SIZE: '20',
      REDIS_URL: 'redis://cache:6379',
      REDIS_PREFIX: 'staging:',
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100',
      RATE_LIMIT_PER_IP_PER_MINUTE: '250',
      REGISTRATIONS_PER_IP_PER_HOUR: '3',
      WS_MAX_SOCKETS_PER_IP: '9',
      TRUST_PROXY: '2',
      CORS_ORIGINS: 'https://mizerka.example, http://localhost:*',
      GRAPHIQL: 'true',
      API_DOCS: 'false',
      METRICS_TOKEN: 'scrape-me-please-1234',
      JOB_WORKER: 'false',
      JOB_CONCURRENCY: '8',
      JOB_POLL_SECONDS: '0.5',
      JOB_BATCH: '1',
      JOB_BATCH_DELAY_SECONDS: '0',
      JOB_RELAY_DELAY_SECONDS: '0.005',
      BOT_JOB_GRACE_SECONDS: '0.25',
      FEED_RETENTION_SECONDS: '0',
      WEBHOOK_DELIVERY_RETENTION_SECONDS: '86400',
      FAILED_JOB_RETENTION_SECONDS: '3600',
      EXPIRED_RETENTION_SECONDS: '60',
      NOTICE_RETENTION_SECONDS: '86400',
      CLOSED_LOBBY_RETENTION_SECONDS: '3600',
      FEED_ARCHIVE_DIR: '/var/lib/mizerka/feeds',
      RETENTION_BATCH: '500',
      RETENTION_HOUR_UTC: '23',
      COMPACT_AFTER_SECONDS: '3600',
      COMPACT_BATCH: '50',
      BOT_THREADS: '3',
      MAX_TOKENS_PER_PLAYER: '3',
      MAX_OPEN_LOBBIES_PER_PLAYER: '2',
      MAX_ACTIVE_BOT_GAMES_PER_PLAYER: '4',
      CHAT_MESSAGES_PER_MINUTE: '9',
      CHAT_MODERATORS: 'Ala, ola_1',
      TOURNAMENT_ADMINS: ' Ela ,ula',
      IMPORTS_PER_PLAYER_PER_HOUR: '7',
      IMPORT_MAX_DEALS: '50',
      IMPORT_THREADS: '2',
      WS_MAX_SOCKETS_PER_PLAYER: '4',
      WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '6',
      WS_MAX_SUBSCRIPTIONS_PER_PLAYER: '7',
      WS_MAX_MESSAGE_BYTES: '2048',
      WS_IDLE_SECONDS: '0',
      GRAPHQL_MAX_DEPTH: '12',
      GRAPHQL_MAX_ALIASES: '3',
      GRAPHQL_MAX_DIRECTIVES: '4',
      GRAPHQL_MAX_TOKENS: '5000',
      GRAPHQL_MAX_COST: '50000',
      GRAPHQL_MAX_RESPONSE_BYTES: '65536',
      WORKERS: '2',
      MIN_MOVE_SECONDS: '5',
      DEADLINE_WARNING_PERCENT: '10',
      VACATION_DAYS_PER_YEAR: '21',
      SSE_KEEPALIVE_SECONDS: '15',
      FEED_POLL_SECONDS: '2',
      WEBHOOK_MAX_ENDPOINTS_PER_PLAYER: '3',
      WEBHOOK_RETRY_SCHEDULE: '1,2,3',
      WEBHOOK_TIMEOUT_SECONDS: '2',
      WEBHOOK_DISABLE_AFTER_SECONDS: '86400',
      WEBHOOK_SWEEP_SECONDS: '5',
      NOTIFY_SWEEP_SECONDS: '20',
      NOTIFY_MAX_AGE_SECONDS: '7200',
      NOTIFY_ACTIVE_MINUTES: '3',
      NOTIFY_DIGEST_MINUTES: '120',
      WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true',
      VAPID_PUBLIC_KEY: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
      VAPID_PRIVATE_KEY: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
      VAPID_SUBJECT: 'mailto:ops@mizerka.example',
      PUSH_MAX_DEVICES_PER_PLAYER: '4',
      PUSH_TIMEOUT_SECONDS: '3',
      PUSH_TTL_SECONDS: '3600',
      PUSH_ALLOW_HTTP_LOOPBACK: 'false',
      EXPORT_MAX_PER_IP: '6',
      EXPORT_MAX_PER_PLAYER: '3',
      EXPORT_IDLE_SECONDS: '15',
      EXPORT_PAGE_SIZE: '25',
      AUTH_CACHE_SECONDS: '30',
      ACCESS_TOKEN_SECONDS: '600',
      SESSION_IDLE_SECONDS: '86400',
      MAX_SESSIONS_PER_PLAYER: '7',
      FAILED_SIGN_INS_PER_ACCOUNT: '4',
      FAILED_SIGN_INS_PER_IP: '40',
      SIGN_IN_LOCK_SECONDS: '600',
      PASSWORD_HASHES_AT_ONCE: '3',
      SMTP_URL: 'smtps://mailer:secret@mail.example:465',
      MAIL_FROM: 'Mizerka <play@mizerka.example>',
      PUBLIC_URL: 'https://mizerka.example',
      WEBAUTHN_ORIGINS: 'https://play.mizerka.example,https://mizerka.example',
      WEBAUTHN_RP_ID: 'mizerka.example',
      MAX_PASSKEYS_PER_PLAYER: '4',
      PASSKEY_CHALLENGES_PER_IP_PER_HOUR: '30',
      GAME_CACHE: 'false',
      INTROSPECTION: 'false',
      IDENTITY_ISSUERS: '[{"issuer": "https://id.example/", "audience": "mizerka", "jwksUrl": "https://id.example/.well-known/jwks.json"}]',
    };
    expect(SETTINGS.map((s) => s.meta.variable).filter((v) => !(v in env)), 'a setting this test does not set').toEqual([]);
    const { config, warnings } = readConfig(env);
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      nodeEnv: 'production',
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: 'postgresql://u:p@db:5432/mizerka',
      databaseReplicaUrl: 'postgresql://u:p@replica:5432/mizerka',
      dataDir: '/var/lib/mizerka',
      databasePoolSize: 20,
      redisUrl: 'redis://cache:6379',
      redisPrefix: 'staging:',
      logLevel: 'debug',
      rateLimitPerMinute: 100,
      addressLimits: { requestsPerMinute: 250, registrationsPerHour: 3, liveConnections: 9 },
      trustProxy: 2,
      corsOrigins: ['https://mizerka.example', 'http://localhost:*'],
      graphiql: true,
      apiDocs: false,
      introspection: false,
      authCacheSeconds: 30,
      accessTokenSeconds: 600,
      sessionIdleSeconds: 86400,
      sessionsPerPlayer: 7,
      passwords: { failedSignInsPerAccount: 4, failedSignInsPerAddress: 40, lockMs: 600_000, hashesAtOnce: 3 },
      mail: { smtpUrl: 'smtps://mailer:secret@mail.example:465', from: 'Mizerka <play@mizerka.example>', publicUrl: 'https://mizerka.example' },
      passkeys: { origins: ['https://play.mizerka.example', 'https://mizerka.example'], rpId: 'mizerka.example', perPlayer: 4, challengesPerHour: 30 },
      gameCache: false,
      botThreads: 3,
      metricsToken: 'scrape-me-please-1234',
      identityIssuers: [
        {
          issuer: 'https://id.example/',
          audience: 'mizerka',
          jwksUrl: 'https://id.example/.well-known/jwks.json',
          algorithms: ['RS256'],
          subjectClaim: 'sub',
          scopes: ['read', 'play'],
          clockToleranceSeconds: 30,
          jwksCacheSeconds: 600,
          jwksCooldownSeconds: 30,
          jwksTimeoutSeconds: 5,
        },
      ],
      quotas: { tokensPerPlayer: 3, openLobbiesPerPlayer: 2, activeBotGamesPerPlayer: 4 },
      chat: { messagesPerMinute: 9, moderators: ['ala', 'ola_1'] },
      tournaments: { admins: ['ela', 'ula'] },
      imports: { perPlayerPerHour: 7, maxDeals: 50, threads: 2 },
      live: { socketsPerPlayer: 4, subscriptionsPerSocket: 6, subscriptionsPerPlayer: 7, maxMessageBytes: 2048, idleSeconds: 0 },
      graphqlLimits: { maxDepth: 12, maxAliases: 3, maxDirectives: 4, maxTokens: 5000, maxCost: 50_000, maxResponseBytes: 65_536 },
      jobs: { worker: false, concurrency: 8, pollMs: 500, batch: 1, batchDelayMs: 0, relayDelayMs: 5, botGraceMs: 250 },
      workers: 2,
      retention: { feedSeconds: 0, webhookDeliverySeconds: 86_400, failedJobSeconds: 3600, expiredSeconds: 60, noticeSeconds: 86_400, closedLobbySeconds: 3600, feedArchiveDir: '/var/lib/mizerka/feeds', batch: 500, hourUtc: 23 },
      compaction: { afterSeconds: 3600, batch: 50 },
      clocks: { minMoveSeconds: 5, warningPercent: 10 },
      vacations: { allowanceDays: 21 },
      streams: { keepAliveMs: 15_000, feedPollMs: 2000 },
      exports: { perIp: 6, perPlayer: 3, idleMs: 15_000, pageSize: 25 },
      webhooks: {
        endpointsPerPlayer: 3,
        retrySchedule: [1, 2, 3],
        timeoutMs: 2000,
        disableAfterMs: 24 * 3_600_000,
        sweepMs: 5000,
        allowHttpLoopback: true,
      },
      notifications: { sweepMs: 20_000, maxAgeMs: 7_200_000, activeMinutes: 3, digestMinutes: 120 },
      push: {
        vapidPublicKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
        vapidPrivateKey: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
        vapidKeys: { publicKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U', privateKey: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls' },
        vapidSubject: 'mailto:ops@mizerka.example',
        devicesPerPlayer: 4,
        timeoutMs: 3000,
        ttlSeconds: 3600,
        allowHttpLoopback: false,
      },
    });
  });

  it('trusts no identity issuer by default, and names the field at fault of a bad one', () => {
    expect(loadConfig({}).identityIssuers).toEqual([]);
    const problem = (issuers: unknown) => {
      try {
        loadConfig({ IDENTITY_ISSUERS: typeof issuers === 'string' ? issuers : JSON.stringify(issuers) });
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
      throw new Error('accepted');
    };
    const good = { issuer: 'https://id.example/', audience: 'mizerka', jwksUrl: 'https://id.example/jwks.json' };
    expect(problem('{oops')).toMatch(/^IDENTITY_ISSUERS: expected JSON: a list of issuers/);
    expect(problem([{ ...good, audience: undefined }])).toMatch(/^IDENTITY_ISSUERS: \[0\]\.audience: /);
    expect(problem([good, { ...good, issuer: 'https://other.example/', algorithms: ['HS256'] }])).toMatch(
      /IDENTITY_ISSUERS: \[1\]\.algorithms\[0\]: expected one of RS256, PS256, ES256, EdDSA \(never none or HMAC\)/,
    );
    expect(problem([{ ...good, algorithms: ['none'] }])).toMatch(/\[0\]\.algorithms\[0\]: expected one of RS256/);
    expect(problem([{ ...good, scopes: ['read', 'admin'] }])).toMatch(/\[0\]\.scopes\[1\]: expected read or play/);
    expect(problem([{ ...good, jwksUrl: undefined }])).toMatch(/\[0\]\.jwksUrl: expected exactly one of jwksUrl and publicKey/);
    expect(problem([{ ...good, publicKey: { kty: 'oct', k: 'c2VjcmV0' }, jwksUrl: undefined }])).toMatch(/\[0\]\.publicKey/);
    expect(problem([{ ...good, audiences: 'typo' }])).toMatch(/\[0\]: Unrecognized key: "audiences"/);
    expect(problem([good, good])).toMatch(/the list: expected each issuer once/);
    expect(problem([{ ...good, jwksUrl: 'http://id.example/jwks.json' }])).toMatch(/\[0\]\.jwksUrl: expected an https URL \(http only to a loopback address\)/);
    expect(loadConfig({ IDENTITY_ISSUERS: JSON.stringify([{ ...good, jwksUrl: 'http://127.0.0.1:8080/jwks.json' }]) }).identityIssuers).toHaveLength(1);
  });

  it('caps tokens, lobbies and live subscriptions by default', () => {
    expect(loadConfig({}).quotas).toEqual({ tokensPerPlayer: 20, openLobbiesPerPlayer: 5, activeBotGamesPerPlayer: 5 });
    expect(loadConfig({}).chat).toEqual({ messagesPerMinute: 20, moderators: [] });
    expect(loadConfig({}).tournaments).toEqual({ admins: [] });
    expect(loadConfig({}).live).toEqual({
      socketsPerPlayer: 5,
      subscriptionsPerSocket: 20,
      subscriptionsPerPlayer: 50,
      maxMessageBytes: 65_536,
      idleSeconds: 300,
    });
    expect(() => loadConfig({ WS_MAX_MESSAGE_BYTES: '100' })).toThrow(/WS_MAX_MESSAGE_BYTES/);
  });

  it('gives one address five players\' worth of requests and live connections, and 5 registrations an hour, by default', () => {
    expect(loadConfig({}).addressLimits).toEqual({ requestsPerMinute: 3000, registrationsPerHour: 5, liveConnections: 25 });
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '60', WS_MAX_SOCKETS_PER_PLAYER: '2' }).addressLimits).toEqual({
      requestsPerMinute: 300,
      registrationsPerHour: 5,
      liveConnections: 10,
    });
    expect(() => loadConfig({ REGISTRATIONS_PER_IP_PER_HOUR: '0' })).toThrow(/REGISTRATIONS_PER_IP_PER_HOUR/);
  });

  it('bounds every GraphQL request by default', () => {
    expect(loadConfig({}).graphqlLimits).toEqual({
      maxDepth: 8,
      maxAliases: 10,
      maxDirectives: 10,
      maxTokens: 1000,
      maxCost: 20_000,
      maxResponseBytes: 2 * 1024 * 1024,
    });
    expect(() => loadConfig({ GRAPHQL_MAX_DEPTH: '1' })).toThrow(/GRAPHQL_MAX_DEPTH/);
    expect(() => loadConfig({ GRAPHQL_MAX_TOKENS: 'lots' })).toThrow(/GRAPHQL_MAX_TOKENS/);
  });

  it('turns developer tools and CORS off in production unless asked for', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ graphiql: false, apiDocs: false, introspection: false, corsOrigins: [] });
    expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: 'true', API_DOCS: 'true', INTROSPECTION: 'true' })).toMatchObject({
      graphiql: true,
      apiDocs: true,
      introspection: true,
    });
    expect(loadConfig({})).toMatchObject({
      graphiql: true,
      apiDocs: true,
      introspection: true,
      corsOrigins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'],
      trustProxy: false,
    });
    expect(loadConfig({ CORS_ORIGINS: 'none' }).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it('trusts a proxy only when told which', () => {
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback,::1' }).trustProxy).toEqual(['10.0.0.0/8', 'loopback', '::1']);
    for (const bad of ['on', 'true', '0', '11', '10.0.0.0/33', 'proxy.example', '1.2.3.4/8/9']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ GRAPHIQL: 'yes' })).toThrow(/GRAPHIQL/);
  });

  it('works jobs in every instance by default', () => {
    expect(loadConfig({}).jobs).toEqual({ worker: true, concurrency: 4, pollMs: 1000, batch: 32, batchDelayMs: 20, relayDelayMs: 50, botGraceMs: 2000 });
  });

  it('runs one server process unless WORKERS says more, and more only with REDIS_URL', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '2', REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({ workers: 2, gameCache: true });
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/WORKERS=2 needs REDIS_URL/);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/WORKERS: expected a whole number from 1 to 64, got "0"/);
  });

  it('takes the passkeys\' relying party from WEBAUTHN_ORIGINS, refusing wildcards, IP addresses and origins off WEBAUTHN_RP_ID', () => {
    expect(loadConfig({}).passkeys).toEqual({ origins: null, rpId: null, perPlayer: 20, challengesPerHour: 120 });
    expect(loadConfig({ WEBAUTHN_ORIGINS: 'https://play.example.com' }).passkeys).toMatchObject({ origins: ['https://play.example.com'], rpId: 'play.example.com' });
    expect(() => loadConfig({ WEBAUTHN_ORIGINS: 'http://localhost:*' })).toThrow(/WEBAUTHN_ORIGINS/);
    expect(() => loadConfig({ WEBAUTHN_ORIGINS: 'http://192.168.1.5:3000' })).toThrow(/not the address 192.168.1.5/);
    expect(() => loadConfig({ WEBAUTHN_ORIGINS: 'https://play.example.com', WEBAUTHN_RP_ID: 'other.org' })).toThrow(/is not on WEBAUTHN_RP_ID other.org/);
    expect(() => loadConfig({ WEBAUTHN_RP_ID: 'example.com' })).toThrow(/WEBAUTHN_RP_ID needs WEBAUTHN_ORIGINS/);
  });

  it('lets tests shorten move clocks, never below a second', () => {
    expect(loadConfig({}).clocks).toEqual({ minMoveSeconds: 60, warningPercent: 25 });
    expect(loadConfig({ MIN_MOVE_SECONDS: '1', DEADLINE_WARNING_PERCENT: '0' }).clocks).toEqual({ minMoveSeconds: 1, warningPercent: 0 });
    expect(() => loadConfig({ MIN_MOVE_SECONDS: '0' })).toThrow(/MIN_MOVE_SECONDS/);
  });

  it('bounds exports by default: open ones per address and per player, the idle time, the page read at a time', () => {
    expect(loadConfig({}).exports).toEqual({ perIp: 4, perPlayer: 2, idleMs: 30_000, pageSize: 50 });
    expect(() => loadConfig({ EXPORT_IDLE_SECONDS: '0' })).toThrow(/EXPORT_IDLE_SECONDS/);
    expect(() => loadConfig({ EXPORT_PAGE_SIZE: '5000' })).toThrow(/EXPORT_PAGE_SIZE/);
    expect(() => loadConfig({ EXPORT_MAX_PER_IP: '0' })).toThrow(/EXPORT_MAX_PER_IP/);
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
    expect(problems.join('\n')).toMatch(/JOB_WORKER: expected true or false, got "maybe"/);
    expect(problems.join('\n')).toMatch(/JOB_CONCURRENCY.*1 to 64/);
  });

  it('names the variable, what it expected and what it got', () => {
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_SECONDS: 'x' })).toThrow('WEBHOOK_TIMEOUT_SECONDS: expected a number of seconds from 1 to 60 (at most 3 decimals), got "x"');
    expect(() => loadConfig({ JOB_POLL_SECONDS: '0.0001' })).toThrow(/JOB_POLL_SECONDS: .*, got "0.0001"/);
  });

  it('writes every duration in seconds, to the millisecond', () => {
    expect(loadConfig({ JOB_POLL_SECONDS: '0.25', JOB_BATCH_DELAY_SECONDS: '0.001', FEED_POLL_SECONDS: '1.5' })).toMatchObject({
      jobs: { pollMs: 250, batchDelayMs: 1 },
      streams: { feedPollMs: 1500 },
    });
    expect(loadConfig({ WEBHOOK_DISABLE_AFTER_SECONDS: '7200' }).webhooks.disableAfterMs).toBe(7_200_000);
  });

  it('still reads the old spellings, with one warning each naming the new one', () => {
    const { config, warnings } = readConfig({
      JOB_POLL_MS: '500',
      BOT_JOB_GRACE_MS: '250',
      FEED_POLL_MS: '2000',
      WEBHOOK_DISABLE_AFTER_HOURS: '24',
      GAME_CACHE: 'off',
      JOB_WORKER: 'on',
      WEBHOOK_ALLOW_HTTP_LOOPBACK: 'on',
    });
    expect(config).toMatchObject({
      jobs: { pollMs: 500, botGraceMs: 250, worker: true },
      streams: { feedPollMs: 2000 },
      webhooks: { disableAfterMs: 24 * 3_600_000, allowHttpLoopback: true },
      gameCache: false,
    });
    expect(warnings.map((w) => w.variable).sort()).toEqual(
      ['BOT_JOB_GRACE_MS', 'FEED_POLL_MS', 'GAME_CACHE', 'JOB_POLL_MS', 'JOB_WORKER', 'WEBHOOK_ALLOW_HTTP_LOOPBACK', 'WEBHOOK_DISABLE_AFTER_HOURS'],
    );
    const said = warnings.map((w) => w.message).join('\n');
    expect(said).toContain('write JOB_POLL_SECONDS=0.5 instead of JOB_POLL_MS=500');
    expect(said).toContain('write WEBHOOK_DISABLE_AFTER_SECONDS=86400 instead of WEBHOOK_DISABLE_AFTER_HOURS=24');
    expect(said).toContain('GAME_CACHE=off is an old spelling: write GAME_CACHE=false');
    expect(readConfig({ GAME_CACHE: 'false', JOB_POLL_SECONDS: '1' }).warnings).toEqual([]);
  });

  it('prefers the new spelling when both are set, and says the old one is ignored', () => {
    const { config, warnings } = readConfig({ JOB_POLL_SECONDS: '2', JOB_POLL_MS: '500' });
    expect(config.jobs.pollMs).toBe(2000);
    expect(warnings).toEqual([{ variable: 'JOB_POLL_MS', message: 'JOB_POLL_MS is ignored: JOB_POLL_SECONDS, its new spelling, is set' }]);
  });

  it('names the old variable when its value is bad, in its own unit or once read in seconds', () => {
    expect(() => loadConfig({ JOB_POLL_MS: 'soon' })).toThrow('JOB_POLL_MS: expected a whole number of milliseconds, got "soon" (its new spelling is JOB_POLL_SECONDS, in seconds)');
    expect(() => loadConfig({ JOB_POLL_MS: '50' })).toThrow(/JOB_POLL_MS \(read as JOB_POLL_SECONDS=0.05\): expected a number of seconds from 0.1 to 60.*, got "50"/);
    expect(() => loadConfig({ GAME_CACHE: 'yes' })).toThrow('GAME_CACHE: expected true or false, got "yes"');
  });

  it('has one variable per setting, each described, its default one of its own values', () => {
    const names = SETTINGS.flatMap((s) => [s.meta.variable, ...(s.meta.replaces ? [s.meta.replaces.variable] : [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const { meta } of SETTINGS) {
      expect(meta.description, meta.variable).not.toBe('');
      expect(meta.default ?? meta.defaultText, `${meta.variable}: a default or what stands for one`).toBeDefined();
      if (meta.default !== undefined) expect(() => loadConfig({ [meta.variable]: meta.default }), meta.variable).not.toThrow();
    }
  });
});
