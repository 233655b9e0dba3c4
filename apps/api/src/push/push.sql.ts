import { z } from 'zod';
import { toJsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { Prisma } from '../generated/prisma/client.js';

/** The task that sends one notice to one device. */
export const SEND_TASK = 'push.send';

/**
 * Tries of one send before it is dropped: the queue waits about e^n seconds before the n-th retry
 * (about 2 hours in all), and a turn announced later than that is no news.
 */
export const SEND_ATTEMPTS = 8;

const keyPair = z.object({ public_key: z.string(), private_key: z.string() });

/**
 * The stored VAPID key pair, inserting `candidate` first if there is none: of instances starting
 * together each offers its own pair and all of them read the one that was inserted first. A no-op
 * DO UPDATE, not DO NOTHING plus a SELECT: the SELECT would read the statement's snapshot, taken
 * before a concurrent first insert committed, and find no row at all.
 */
export function vapidKeyPairSql(candidate: { publicKey: string; privateKey: string }) {
  return sqlQuery(
    keyPair,
    Prisma.sql`
      INSERT INTO vapid_key_pairs (id, public_key, private_key) VALUES (1, ${candidate.publicKey}, ${candidate.privateKey})
      ON CONFLICT (id) DO UPDATE SET public_key = vapid_key_pairs.public_key
      RETURNING public_key, private_key`,
  );
}

const device = z.object({
  id: z.string(),
  label: z.string(),
  created_at: z.date(),
  last_success_at: z.date().nullable(),
});

/**
 * Adds a device of the player's (or renews the keys of the endpoint they already had), unless
 * they hold `max` others already: then no row. Takes the player's row lock, so two additions at
 * once are counted one after the other.
 */
export function addSubscriptionSql(playerId: string, endpoint: string, p256dh: string, auth: string, label: string, max: number) {
  return sqlQuery(
    device.extend({ added: z.boolean() }),
    Prisma.sql`
      WITH me AS (SELECT id FROM players WHERE id = ${playerId}::uuid FOR UPDATE),
           others AS (SELECT count(*) AS n FROM push_subscriptions s, me WHERE s.player_id = me.id AND s.endpoint <> ${endpoint})
      INSERT INTO push_subscriptions (id, player_id, endpoint, p256dh, auth, label)
      SELECT gen_random_uuid(), me.id, ${endpoint}, ${p256dh}, ${auth}, ${label} FROM me, others WHERE others.n < ${max}
      ON CONFLICT (player_id, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, label = EXCLUDED.label
      RETURNING id::text, label, created_at, last_success_at, (xmax = 0) AS added`,
  );
}

/** The player's devices, oldest first (at most PUSH_MAX_DEVICES_PER_PLAYER of them). */
export function listSubscriptionsSql(playerId: string) {
  return sqlQuery(
    device,
    Prisma.sql`
      SELECT id::text, label, created_at, last_success_at FROM push_subscriptions
       WHERE player_id = ${playerId}::uuid ORDER BY created_at, id`,
  );
}

/** Removes one of the player's devices; no row when it is not theirs (or gone). */
export function removeSubscriptionSql(playerId: string, id: string) {
  return sqlQuery(
    device,
    Prisma.sql`
      DELETE FROM push_subscriptions WHERE id = ${id}::uuid AND player_id = ${playerId}::uuid
      RETURNING id::text, label, created_at, last_success_at`,
  );
}

/** A device as a send needs it; no row once it was removed. */
export function subscriptionForSendSql(id: string) {
  return sqlQuery(
    z.object({ endpoint: z.string(), p256dh: z.string(), auth: z.string() }),
    Prisma.sql`SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE id = ${id}::uuid`,
  );
}

/** The push service took a notice for the device. */
export function markSuccessSql(id: string): Prisma.Sql {
  return Prisma.sql`UPDATE push_subscriptions SET last_success_at = now() WHERE id = ${id}::uuid`;
}

/** The push service no longer knows the device (404, 410): it is forgotten. */
export function forgetSubscriptionSql(id: string): Prisma.Sql {
  return Prisma.sql`DELETE FROM push_subscriptions WHERE id = ${id}::uuid`;
}

/** One notice for one player's devices: the send job's message, and its urgency (RFC 8030). */
export interface QueuedNotice {
  playerId: string;
  feedEventId: string;
  urgency: 'high' | 'normal';
  message: object;
}

/**
 * Queues a `push.send` job per (device of the notice's player, notice), each once: the pair's row
 * in push_sends is inserted with it, and a pair that has one already queues nothing. The job's
 * key is the pair too, so even a job still waiting is not doubled. Answers the jobs added.
 */
export function queueSendsSql(notices: readonly QueuedNotice[]) {
  const q = Prisma.raw(JOB_QUEUE_SCHEMA);
  const rows = toJsonColumn(notices.map((n) => ({ player_id: n.playerId, feed_event_id: n.feedEventId, urgency: n.urgency, message: n.message })));
  return sqlQuery(
    z.object({ queued: z.number() }),
    Prisma.sql`
      WITH n AS (
        SELECT DISTINCT ON (player_id, feed_event_id) *
          FROM jsonb_to_recordset(${rows}::jsonb) AS n(player_id uuid, feed_event_id text, urgency text, message jsonb)),
      fresh AS (
        INSERT INTO push_sends (subscription_id, feed_event_id)
        SELECT s.id, n.feed_event_id FROM n JOIN push_subscriptions s ON s.player_id = n.player_id
        ON CONFLICT DO NOTHING
        RETURNING subscription_id, feed_event_id),
      specs AS (
        SELECT ROW(${SEND_TASK}::text,
                   json_build_object('subscriptionId', f.subscription_id, 'feedEventId', f.feed_event_id, 'urgency', n.urgency, 'message', n.message),
                   NULL::text, now(), ${SEND_ATTEMPTS}::smallint,
                   'push:' || f.subscription_id::text || ':' || f.feed_event_id, NULL::smallint, NULL::text[])::${q}.job_spec AS spec
          FROM fresh f
          JOIN push_subscriptions s ON s.id = f.subscription_id
          JOIN n ON n.player_id = s.player_id AND n.feed_event_id = f.feed_event_id)
      SELECT count(*)::int AS queued FROM ${q}.add_jobs(ARRAY(SELECT spec FROM specs), false)`,
  );
}

/** Forgets sends queued before `days` ago, a bounded batch at a time. */
export function sweepSendsSql(days: number, limit: number): Prisma.Sql {
  return Prisma.sql`
    DELETE FROM push_sends WHERE (subscription_id, feed_event_id) IN (
      SELECT subscription_id, feed_event_id FROM push_sends
       WHERE queued_at < now() - make_interval(days => ${days}::int) ORDER BY queued_at LIMIT ${limit})`;
}
