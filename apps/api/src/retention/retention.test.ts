import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { waitFor } from '../../../../test/wait.js';
import { loadConfig } from '../config/app-config.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { GamesService } from '../games/games.service.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { RetentionService } from './retention.service.js';

// The retention job's runs with an injected `now`: rows are written at times relative to it, each
// run deletes what is older than its retention and nothing else, in batches of RETENTION_BATCH, and
// a second run (or a run after one that was cut short) finds nothing left to delete.
const DAY = 86_400_000;
const BATCH = 10;
const base = loadConfig({});

let t: TestApp;
let prisma: PrismaService;
let retention: RetentionService;
let ala: string;
let ola: string;
let endpoint: string;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY);

beforeAll(async () => {
  // No job worker: the runs below are the only ones (the cron's daily job never runs here).
  t = await startTestApp({ jobs: { ...base.jobs, worker: false }, retention: { ...base.retention, batch: BATCH } });
  prisma = t.app.get(PrismaService);
  retention = t.app.get(RetentionService);
  ala = (await t.register('ret_ala')).id;
  ola = (await t.register('ret_ola')).id;
  endpoint = (
    await prisma.$queryRaw<{ id: string }[]>`
      INSERT INTO webhook_endpoints (id, player_id, url, event_types, secret, updated_at)
      VALUES (gen_random_uuid(), ${ala}::uuid, 'https://example.com/hook', '{}', 'whsec_x', now()) RETURNING id::text AS id`
  )[0].id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** Adds `n` feed events of `player` made at `at`, each in a transaction of its own (its own tx). */
async function feedEvents(player: string, n: number, at: Date): Promise<void> {
  for (let i = 0; i < n; i++) {
    await prisma.$executeRaw`INSERT INTO player_events (player_id, type, payload, created_at) VALUES (${player}::uuid, 'lobbyJoined', '{}', ${at})`;
  }
}

async function feedIds(player: string): Promise<{ tx: bigint; id: bigint }[]> {
  const rows = await prisma.$queryRaw<{ tx: string; id: bigint }[]>`SELECT tx::text AS tx, id FROM player_events WHERE player_id = ${player}::uuid ORDER BY tx, id`;
  return rows.map((r) => ({ tx: BigInt(r.tx), id: r.id }));
}

async function deliveries(n: number, at: Date, status: 'delivered' | 'failed' | 'pending'): Promise<void> {
  await prisma.$executeRaw`
    WITH d AS (
      INSERT INTO webhook_deliveries (id, endpoint_id, event_id, type, payload, status, created_at)
      SELECT gen_random_uuid(), ${endpoint}::uuid, nextval('player_events_id_seq'), 'yourTurn', '{}', ${status}::"WebhookDeliveryStatus", ${at}
        FROM generate_series(1, ${n}::int) RETURNING id, created_at)
    INSERT INTO webhook_attempts (delivery_id, attempt, at, duration_ms) SELECT id, 1, created_at, 5 FROM d`;
}

const count = async (sql: string): Promise<number> => Number((await prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${sql}`))[0].n);

describe('the retention job', () => {
  let deleteStatements: string[];
  beforeEach(() => {
    deleteStatements = [];
    const queryRaw = prisma.$queryRaw.bind(prisma);
    vi.spyOn(prisma, '$queryRaw').mockImplementation(((query: { text?: string; sql?: string }, ...rest: unknown[]) => {
      const text = query.text ?? query.sql ?? '';
      if (/DELETE FROM|complete_jobs/.test(text)) deleteStatements.push(text);
      return (queryRaw as (...args: unknown[]) => unknown)(query, ...rest);
    }) as never);
    return () => vi.restoreAllMocks();
  });

  it('deletes old feed events, deliveries and ended sign-ins in bounded batches, keeps recent ones, and a second run deletes nothing', async () => {
    await feedEvents(ala, 25, ago(100));
    await feedEvents(ola, 3, ago(95));
    await feedEvents(ala, 3, ago(1));
    await feedEvents(ola, 2, ago(89));
    await deliveries(12, ago(40), 'delivered');
    await deliveries(1, ago(40), 'failed');
    await deliveries(1, ago(40), 'pending');
    await deliveries(2, ago(2), 'delivered');
    // Sessions: one expired three weeks ago (its tokens go with it), one live with an old used
    // refresh token and a fresh one; a personal token revoked long ago; an email link used long ago.
    await prisma.$executeRaw`
      WITH s AS (
        INSERT INTO auth_sessions (id, player_id, method, scopes, created_at, last_used_at, expires_at)
        VALUES (gen_random_uuid(), ${ala}::uuid, 'password', '{read}', ${ago(60)}::timestamptz, ${ago(51)}::timestamptz, ${ago(21)}::timestamptz),
               (gen_random_uuid(), ${ala}::uuid, 'password', '{read}', ${ago(60)}::timestamptz, ${ago(1)}::timestamptz, ${new Date(now.getTime() + 29 * DAY)}::timestamptz)
        RETURNING id, expires_at)
      INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, used_at)
      SELECT gen_random_uuid(), s.id, md5(random()::text) || md5(random()::text), ${ago(50)}::timestamptz, ${ago(50)}::timestamptz FROM s
      UNION ALL
      SELECT gen_random_uuid(), s.id, md5(random()::text) || md5(random()::text), ${ago(1)}::timestamptz, NULL FROM s WHERE s.expires_at > ${now}::timestamptz`;
    await prisma.$executeRaw`
      INSERT INTO api_tokens (id, player_id, name, token_hash, created_at, revoked_at)
      VALUES (gen_random_uuid(), ${ala}::uuid, 'old', md5('old') || md5('old1'), ${ago(90)}::timestamptz, ${ago(30)}::timestamptz)`;
    await prisma.$executeRaw`
      INSERT INTO account_tokens (id, player_id, purpose, token_hash, created_at, expires_at, used_at)
      VALUES (gen_random_uuid(), ${ala}::uuid, 'verify_email', md5('a') || md5('b'), ${ago(20)}::timestamptz, ${ago(19)}::timestamptz, ${ago(20)}::timestamptz),
             (gen_random_uuid(), ${ala}::uuid, 'reset_password', md5('c') || md5('d'), ${ago(0)}::timestamptz, ${new Date(now.getTime() + 3600_000)}::timestamptz, NULL)`;
    await prisma.$executeRaw`
      INSERT INTO passkey_challenges (id, challenge, kind, created_at, expires_at)
      VALUES (gen_random_uuid(), 'old', 'sign_in', ${ago(9)}::timestamptz, ${ago(9)}::timestamptz), (gen_random_uuid(), 'new', 'sign_in', ${now}::timestamptz, ${new Date(now.getTime() + 300_000)}::timestamptz)`;
    const alaBefore = await feedIds(ala);
    const sessionTokensBefore = await count(`api_tokens WHERE player_id = '${ala}'`);

    const counts = await retention.run(now);
    expect(counts).toMatchObject({
      feedEvents: 28,
      webhookDeliveries: 13,
      sessions: 1,
      refreshTokens: 1, // the live session's old used one; the ended session's went with it
      accessTokens: 1,
      emailTokens: 1,
      passkeyChallenges: 1,
      failedJobs: 0,
    });
    // 25 + 3 feed events in batches of 10: three statements, none over the batch.
    expect(deleteStatements.filter((s) => s.includes('DELETE FROM player_events'))).toHaveLength(3);
    expect(deleteStatements.filter((s) => s.includes('DELETE FROM webhook_deliveries'))).toHaveLength(2);

    expect(await feedIds(ala)).toEqual(alaBefore.slice(25));
    expect(await count(`player_events WHERE player_id = '${ola}'`)).toBe(2);
    expect(await count(`webhook_deliveries WHERE status = 'pending'`)).toBe(1);
    expect(await count(`webhook_deliveries`)).toBe(3);
    expect(await count(`webhook_attempts`)).toBe(3);
    expect(await count(`auth_sessions`)).toBe(1);
    expect(await count(`refresh_tokens WHERE used_at IS NULL`)).toBe(1);
    expect(await count(`refresh_tokens`)).toBe(1);
    expect(await count(`api_tokens WHERE player_id = '${ala}'`)).toBe(sessionTokensBefore - 1);
    expect(await count(`account_tokens`)).toBe(1);
    expect(await count(`passkey_challenges`)).toBe(1);

    deleteStatements = [];
    const again = await retention.run(now);
    expect(Object.values(again).every((n) => n === 0)).toBe(true);
    // One short statement per kind of row (and per endpoint): nothing left, nothing re-scanned.
    expect(deleteStatements.filter((s) => s.includes('DELETE FROM player_events'))).toHaveLength(1);
  });

  it('answers a stream resuming from a deleted event from the oldest event kept', async () => {
    const feed = t.app.get(PlayerEventsService);
    await feedEvents(ala, 2, now);
    const deleted = await feedIds(ala);
    const newest = deleted[deleted.length - 1];
    // 91 days on, everything written so far is past the 90 days.
    expect((await retention.run(new Date(now.getTime() + 91 * DAY))).feedEvents).toBeGreaterThanOrEqual(deleted.length);
    await feedEvents(ala, 1, now);
    const [kept] = await feedIds(ala);
    for (const id of [deleted[0], newest]) {
      expect(await feed.issued(ala, id)).toBe(true);
      // A read sees an event once every older transaction of the server has ended (the horizon).
      const read = await waitFor(async () => {
        const events = await feed.feed(ala, id, 50);
        return events.length > 0 && events;
      }, 'the kept event below the horizon');
      expect(read.map((e) => e.cursor)).toEqual([kept]);
    }
    const [mark] = await prisma.$queryRaw<{ tx: string; id: bigint }[]>`SELECT tx::text AS tx, id FROM player_feed_trims WHERE player_id = ${ala}::uuid`;
    expect({ tx: BigInt(mark.tx), id: mark.id }).toEqual(newest);
    // Not another player's id above their own mark, nor one beyond the newest deleted, nor 0-0.
    expect(await feed.issued(ola, newest)).toBe(false);
    expect(await feed.issued(ala, { tx: kept.tx, id: kept.id + 1000n })).toBe(false);
    expect(await feed.issued(ala, { tx: 0n, id: 0n })).toBe(false);
  });

  it('picks up where a run stopped halfway (an instance killed between batches)', async () => {
    await feedEvents(ola, 23, now);
    const later = new Date(now.getTime() + 200 * DAY);
    const before = await count('player_events');
    expect(before).toBeGreaterThan(2 * BATCH);
    const queryRaw = vi.mocked(prisma.$queryRaw).getMockImplementation()!;
    let feedDeletes = 0;
    vi.mocked(prisma.$queryRaw).mockImplementation(((query: { text?: string; sql?: string }, ...rest: unknown[]) => {
      const text = query.text ?? query.sql ?? '';
      if (text.includes('DELETE FROM player_events') && ++feedDeletes === 2) return Promise.reject(new Error('the instance was killed'));
      return (queryRaw as (...args: unknown[]) => unknown)(query, ...rest);
    }) as never);
    await expect(retention.run(later)).rejects.toThrow('killed');
    expect(await count('player_events')).toBe(before - BATCH);

    vi.mocked(prisma.$queryRaw).mockImplementation(queryRaw as never);
    expect((await retention.run(later)).feedEvents).toBe(before - BATCH);
    expect(await count('player_events')).toBe(0);
    expect((await retention.run(later)).feedEvents).toBe(0);
  });

  it('deletes jobs that failed for good once their retention has passed, never a pending one', async () => {
    const [{ id: failed }] = await prisma.$queryRawUnsafe<{ id: bigint }[]>(
      `SELECT id FROM ${JOB_QUEUE_SCHEMA}.add_job('retention.test', '{}'::json, max_attempts => 1)`,
    );
    await prisma.$queryRawUnsafe(`SELECT 1 FROM ${JOB_QUEUE_SCHEMA}.permanently_fail_jobs(ARRAY[$1::bigint], 'failed for the test')`, failed);
    await prisma.$queryRawUnsafe(`SELECT 1 FROM ${JOB_QUEUE_SCHEMA}.add_job('retention.test', '{}'::json, run_at => now() + interval '60 days')`);
    const jobs = () => count(`${JOB_QUEUE_SCHEMA}.jobs WHERE task_identifier = 'retention.test'`);
    expect((await retention.run(now)).failedJobs).toBe(0);
    expect(await jobs()).toBe(2);
    expect((await retention.run(new Date(now.getTime() + 31 * DAY))).failedJobs).toBe(1);
    expect(await jobs()).toBe(1);
  });

  it('deletes finished notices after their retention, in batches, and keeps the ones still waiting', async () => {
    const notices = async (n: number, channel: string, status: string, finishedAt: Date | null) => {
      await prisma.$executeRaw`
        INSERT INTO notice_sends (channel, player_id, feed_event_id, kind, notice, due_at, status, created_at, finished_at)
        SELECT ${channel}, ${ola}::uuid, md5(random()::text), 'yourTurn', '{}', ${finishedAt ?? now}::timestamptz,
               ${status}, ${finishedAt ?? now}::timestamptz, ${finishedAt}::timestamptz
          FROM generate_series(1, ${n}::int)`;
    };
    await notices(BATCH + 3, 'email', 'sent', ago(10));
    await notices(1, 'push', 'dropped', ago(8));
    await notices(2, 'push', 'handed', ago(9)); // handed to Web Push: done with
    await notices(1, 'email', 'handed', ago(9)); // an email waiting for its digest: stays
    await notices(1, 'email', 'pending', null); // still due: stays
    await notices(2, 'push', 'sent', ago(2)); // within the 7 days: stays
    const before = await count('notice_sends');

    const counts = await retention.run(now);
    expect(counts.notices).toBe(BATCH + 6);
    expect(await count('notice_sends')).toBe(before - (BATCH + 6));
    expect(await count(`notice_sends WHERE status = 'handed' AND channel = 'email'`)).toBe(1);
    expect(await count(`notice_sends WHERE status = 'pending'`)).toBe(1);
    expect(await count(`notice_sends WHERE finished_at > '${ago(3).toISOString()}'`)).toBe(2);
    // BATCH + 6 rows: a full batch and a short one.
    expect(deleteStatements.filter((s) => s.includes('DELETE FROM notice_sends'))).toHaveLength(2);
    expect((await retention.run(now)).notices).toBe(0);
  });

  it('deletes lobbies closed without a game after their retention, with their seats and talk, and keeps the others', async () => {
    const lobby = async (status: string, updatedAt: Date): Promise<string> => {
      const [{ id }] = await prisma.$queryRaw<{ id: string }[]>`
        WITH l AS (
          INSERT INTO lobbies (id, preset, players, invite_code, host_id, status, created_at, updated_at)
          VALUES (gen_random_uuid(), 'classic', 3, substr(md5(random()::text), 1, 12), ${ala}::uuid, ${status}::"LobbyStatus", ${updatedAt}::timestamptz, ${updatedAt}::timestamptz)
          RETURNING id),
        s AS (INSERT INTO lobby_seats (lobby_id, seat, player_id) SELECT id, 0, ${ala}::uuid FROM l),
        r AS (INSERT INTO chat_rooms (id, lobby_id, kind, last_seq) SELECT gen_random_uuid(), id, 'players', 1 FROM l RETURNING id),
        m AS (INSERT INTO chat_messages (room_id, seq, author_id, body) SELECT id, 1, ${ala}::uuid, 'hi' FROM r)
        SELECT id::text AS id FROM l`;
      return id;
    };
    const gone = [await lobby('closed', ago(40)), await lobby('closed', ago(31))];
    const recent = await lobby('closed', ago(10));
    const open = await lobby('open', ago(40));
    const reported = await lobby('closed', ago(40));
    await prisma.$executeRaw`
      INSERT INTO chat_reports (id, room_id, seq, reporter_id, context)
      SELECT gen_random_uuid(), r.id, 1, ${ola}::uuid, '[]' FROM chat_rooms r WHERE r.lobby_id = ${reported}::uuid`;
    // A lobby whose game started (and whose row was closed later) stays with its game.
    const played = await lobby('closed', ago(40));
    const games = t.app.get(GamesService);
    const ela = (await t.register('ret_ela')).id;
    const { gameId } = await prisma.$transaction((tx) =>
      games.startGame(tx, { lobbyId: played, preset: 'classic', options: {}, seats: [ala, ola, ela].map((playerId, seat) => ({ seat, playerId })), timeControl: null }),
    );

    const counts = await retention.run(now);
    expect(counts.closedLobbies).toBe(2);
    const kept = (await prisma.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM lobbies WHERE id = ANY(${[...gone, recent, open, reported, played]}::uuid[])`).map((r) => r.id);
    expect(kept.sort()).toEqual([recent, open, reported, played].sort());
    expect(await count(`lobby_seats WHERE lobby_id IN ('${gone.join("','")}')`)).toBe(0);
    expect(await count(`chat_rooms WHERE lobby_id IN ('${gone.join("','")}')`)).toBe(0);
    const [{ lobby_id }] = await prisma.$queryRaw<{ lobby_id: string }[]>`SELECT lobby_id::text FROM games WHERE id = ${gameId}::uuid`;
    expect(lobby_id).toBe(played);
    expect((await retention.run(now)).closedLobbies).toBe(0);
  });
});
