import { z } from 'zod';
import { jsonColumn, toJsonColumn } from '../common/json-column.js';
import { sqlQuery } from '../common/sql-query.js';
import { JOB_QUEUE_SCHEMA } from '../database/job-queue.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Notice } from './notice.js';

// The SQL of notifications: preferences, the routing's cursor per player, presence, and the
// notices per channel (notice_sends). Times are passed in (the service's clock), never now().

const q = Prisma.raw(JOB_QUEUE_SCHEMA);

const settingsRow = z.object({
  push_kinds: z.array(z.string()).nullable(),
  email_kinds: z.array(z.string()).nullable(),
  kinds_set: z.boolean(),
  email_mode: z.string().nullable(),
  digest_minutes: z.number().nullable(),
  quiet_start: z.number().nullable(),
  quiet_end: z.number().nullable(),
  time_zone: z.string().nullable(),
  active_minutes: z.number().nullable(),
});
const SETTINGS_COLUMNS = Prisma.sql`s.push_kinds, s.email_kinds, coalesce(s.kinds_set, false) AS kinds_set, s.email_mode, s.digest_minutes, s.quiet_start, s.quiet_end, s.time_zone, s.active_minutes`;

/** The player's stored preferences (none: every default), whether their email is verified, and when they were last active. */
export function playerNoticeStateSql(playerId: string) {
  return sqlQuery(
    settingsRow.extend({ found: z.boolean(), email: z.string().nullable(), last_active_at: z.date().nullable(), last_digest_at: z.date().nullable() }),
    Prisma.sql`
      SELECT s.player_id IS NOT NULL AS found, ${SETTINGS_COLUMNS}, s.last_active_at, s.last_digest_at,
             CASE WHEN a.email_verified_at IS NOT NULL THEN a.email END AS email
        FROM players p
        LEFT JOIN notification_settings s ON s.player_id = p.id
        LEFT JOIN player_accounts a ON a.player_id = p.id
       WHERE p.id = ${playerId}::uuid`,
  );
}

/** The changed preferences (a column given null keeps its value unless listed in `clear`). */
export interface SettingsChange {
  pushKinds?: string[];
  emailKinds?: string[];
  emailMode?: string;
  digestMinutes?: number;
  quiet?: { start: number; end: number } | null;
  timeZone?: string;
  activeMinutes?: number;
}

export function writeSettingsSql(playerId: string, change: SettingsChange, at: Date): Prisma.Sql {
  const kinds = change.pushKinds !== undefined || change.emailKinds !== undefined;
  const quiet = change.quiet !== undefined;
  return Prisma.sql`
    UPDATE notification_settings SET
      push_kinds = CASE WHEN ${kinds} THEN ${change.pushKinds ?? null}::varchar[] ELSE push_kinds END,
      email_kinds = CASE WHEN ${kinds} THEN ${change.emailKinds ?? null}::varchar[] ELSE email_kinds END,
      kinds_set = kinds_set OR ${kinds},
      email_mode = coalesce(${change.emailMode ?? null}::varchar, email_mode),
      digest_minutes = coalesce(${change.digestMinutes ?? null}::int, digest_minutes),
      quiet_start = CASE WHEN ${quiet} THEN ${change.quiet?.start ?? null}::smallint ELSE quiet_start END,
      quiet_end = CASE WHEN ${quiet} THEN ${change.quiet?.end ?? null}::smallint ELSE quiet_end END,
      time_zone = coalesce(${change.timeZone ?? null}::varchar, time_zone),
      active_minutes = coalesce(${change.activeMinutes ?? null}::int, active_minutes),
      updated_at = ${at}
    WHERE player_id = ${playerId}::uuid`;
}

/** Makes the player's routing row if missing, then locks it unless another instance holds it (SKIP LOCKED): its cursor. */
export function ensureCursorSql(playerId: string) {
  return Prisma.sql`INSERT INTO notification_settings (player_id) VALUES (${playerId}::uuid) ON CONFLICT (player_id) DO NOTHING`;
}

export function lockCursorSql(playerId: string) {
  return sqlQuery(
    z.object({ tx: z.string(), id: z.bigint() }),
    Prisma.sql`SELECT cursor_tx::text AS tx, cursor_id AS id FROM notification_settings
                WHERE player_id = ${playerId}::uuid FOR UPDATE SKIP LOCKED`,
  );
}

export function moveCursorSql(playerId: string, tx: bigint, id: bigint): Prisma.Sql {
  return Prisma.sql`UPDATE notification_settings SET cursor_tx = ${tx.toString()}::xid8, cursor_id = ${id}::bigint
                     WHERE player_id = ${playerId}::uuid`;
}

/**
 * The players with a routing row whose feed holds events after their cursor below the horizon:
 * one index probe each (player_events' (player_id, tx, id)). At most `limit`.
 */
export function playersBehindSql(limit: number) {
  return sqlQuery(
    z.object({ player_id: z.string() }),
    Prisma.sql`
      SELECT s.player_id::text AS player_id FROM notification_settings s
       WHERE EXISTS (SELECT 1 FROM player_events e
                      WHERE e.player_id = s.player_id
                        AND (e.tx, e.id) > (s.cursor_tx, s.cursor_id)
                        AND e.tx < pg_snapshot_xmin(pg_current_snapshot()))
       LIMIT ${limit}::int`,
  );
}

/** A notice for one channel, as the routing writes it. */
export interface NoticeRow {
  channel: string;
  notice: Notice;
  seat: number | null;
  seq: number | null;
  dueAt: string;
  /** Dropped at once (with this reason) rather than held: kept so a repeat does not route it again. */
  dropped: string | null;
}

/** Writes notices; one per (channel, player, feed event): a repeat does nothing. */
export function insertNoticesSql(playerId: string, rows: readonly NoticeRow[], at: Date): Prisma.Sql {
  const records = rows.map((r) => ({
    channel: r.channel,
    feed_event_id: r.notice.feedEventId,
    kind: r.notice.kind,
    game_id: r.notice.gameId,
    notice: { notice: r.notice, seat: r.seat, seq: r.seq },
    due_at: r.dueAt,
    status: r.dropped ? 'dropped' : 'pending',
    reason: r.dropped,
  }));
  return Prisma.sql`
    INSERT INTO notice_sends (channel, player_id, feed_event_id, kind, game_id, notice, due_at, status, reason, created_at, finished_at)
    SELECT r.channel, ${playerId}::uuid, r.feed_event_id, r.kind, r.game_id, r.notice, r.due_at, r.status, r.reason, ${at}, CASE WHEN r.status = 'dropped' THEN ${at}::timestamptz END
      FROM jsonb_to_recordset(${toJsonColumn(records)}::jsonb)
           AS r(channel varchar, feed_event_id varchar, kind varchar, game_id uuid, notice jsonb, due_at timestamptz, status varchar, reason varchar)
    ON CONFLICT (channel, player_id, feed_event_id) DO NOTHING`;
}

const storedNotice = z.object({
  notice: z.custom<Notice>((v) => typeof v === 'object' && v !== null),
  seat: z.number().nullable(),
  seq: z.number().nullable(),
});

/**
 * The player's pending notices due by `at`, locked (SKIP LOCKED: another instance working them
 * skips them), each with whether it is superseded: a turn's notice whose game is over, or no
 * longer at that seat's turn, or a later turn of the player's in that game.
 */
export function dueNoticesSql(playerId: string, at: Date, turnKinds: readonly string[]) {
  return sqlQuery(
    z.object({ id: z.bigint(), channel: z.string(), kind: z.string(), stored: jsonColumn(storedNotice), superseded: z.boolean() }),
    Prisma.sql`
      SELECT n.id, n.channel, n.kind, n.notice AS stored,
             (n.kind = ANY(${turnKinds as string[]}::varchar[]) AND n.game_id IS NOT NULL AND (
                NOT EXISTS (SELECT 1 FROM games g WHERE g.id = n.game_id AND g.status = 'active'
                              AND g.to_move = (n.notice->>'seat')::smallint)
                OR EXISTS (SELECT 1 FROM player_events e WHERE e.player_id = n.player_id AND e.game_id = n.game_id
                              AND e.type = 'yourTurn' AND e.seq > (n.notice->>'seq')::int))) AS superseded
        FROM notice_sends n
       WHERE n.player_id = ${playerId}::uuid AND n.status = 'pending' AND n.due_at <= ${at}
       ORDER BY n.due_at, n.id
       LIMIT 200
       FOR UPDATE OF n SKIP LOCKED`,
  );
}

export function finishNoticesSql(ids: readonly bigint[], status: 'handed' | 'sent' | 'dropped', reason: string | null, at: Date): Prisma.Sql {
  return Prisma.sql`UPDATE notice_sends SET status = ${status}, reason = ${reason}, finished_at = ${at}
                     WHERE id = ANY(${ids.map(String)}::bigint[])`;
}

/** Holds notices until `until` (quiet hours begun since they were routed). */
export function holdNoticesSql(ids: readonly bigint[], until: Date): Prisma.Sql {
  return Prisma.sql`UPDATE notice_sends SET due_at = ${until} WHERE id = ANY(${ids.map(String)}::bigint[])`;
}

/** The player's next pending notice's time, if any. */
export function nextDueSql(playerId: string) {
  return sqlQuery(
    z.object({ due_at: z.date().nullable() }),
    Prisma.sql`SELECT min(due_at) AS due_at FROM notice_sends WHERE player_id = ${playerId}::uuid AND status = 'pending'`,
  );
}

/** Sets a keyed job (replacing a pending one of the key, its time included). */
export function setJobSql(task: string, key: string, payload: object, runAt: Date): Prisma.Sql {
  return Prisma.sql`SELECT ${q}.add_job(${task}, ${toJsonColumn(payload)}::json, run_at => ${runAt}::timestamptz, job_key => ${key})`;
}

/** Marks players active at `at` (authenticated requests, live connections). */
export function touchPresenceSql(playerIds: readonly string[], at: Date): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO notification_settings (player_id, last_active_at)
    SELECT u.pid, ${at} FROM unnest(${playerIds as string[]}::uuid[]) AS u(pid)
     WHERE EXISTS (SELECT 1 FROM players p WHERE p.id = u.pid)
    ON CONFLICT (player_id) DO UPDATE SET last_active_at = greatest(notification_settings.last_active_at, excluded.last_active_at)`;
}

/** Notices handed to the email channel and not sent yet, locked (SKIP LOCKED). */
export function handedEmailsSql(playerId: string) {
  return sqlQuery(
    z.object({ id: z.bigint(), stored: jsonColumn(storedNotice) }),
    Prisma.sql`
      SELECT id, notice AS stored FROM notice_sends
       WHERE player_id = ${playerId}::uuid AND channel = 'email' AND status = 'handed'
       ORDER BY due_at, id
       LIMIT 200
       FOR UPDATE SKIP LOCKED`,
  );
}

/** The games waiting for the player's move, soonest deadline first (untimed last). */
export function waitingGamesSql(playerId: string) {
  return sqlQuery(
    z.object({ id: z.string(), preset: z.string(), deadline: z.date().nullable() }),
    Prisma.sql`
      SELECT g.id::text AS id, g.preset, g.turn_deadline AS deadline
        FROM game_seats s JOIN games g ON g.id = s.game_id
       WHERE s.player_id = ${playerId}::uuid AND g.status = 'active' AND g.to_move = s.seat
       ORDER BY g.turn_deadline ASC NULLS LAST, g.created_at
       LIMIT 50`,
  );
}

/** The player's unsubscribe token, made once (a concurrent maker's wins). */
export function unsubscribeTokenSql(playerId: string, fresh: string) {
  return sqlQuery(
    z.object({ token: z.string() }),
    Prisma.sql`
      WITH made AS (
        UPDATE notification_settings SET unsubscribe_token = ${fresh}
         WHERE player_id = ${playerId}::uuid AND unsubscribe_token IS NULL
        RETURNING unsubscribe_token)
      SELECT unsubscribe_token AS token FROM made
      UNION ALL
      SELECT unsubscribe_token AS token FROM notification_settings WHERE player_id = ${playerId}::uuid AND unsubscribe_token IS NOT NULL
      LIMIT 1`,
  );
}

export function markDigestSql(playerId: string, at: Date): Prisma.Sql {
  return Prisma.sql`UPDATE notification_settings SET last_digest_at = ${at} WHERE player_id = ${playerId}::uuid`;
}

/** One-click unsubscribe: email off for the token's player. Answers whether the token was known. */
export function unsubscribeSql(token: string, at: Date) {
  return sqlQuery(
    z.object({ player_id: z.string() }),
    Prisma.sql`UPDATE notification_settings SET email_mode = 'never', updated_at = ${at}
                WHERE unsubscribe_token = ${token} RETURNING player_id::text AS player_id`,
  );
}
