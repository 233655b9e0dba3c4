import type { GameEnd } from '@mizerka/rules';
import { Prisma } from '../generated/prisma/client.js';
import { toJsonColumn } from '../common/json-column.js';

/**
 * What must happen because of a move, written in the move's own statement (the transactional
 * outbox) and handed to consumers after the commit, at least once. A consumer keys its effects
 * by (gameId, seq, entry) so that a second delivery changes nothing.
 */
export type OutboxEntry =
  /** The seat is to move; `deadline` (ISO time) is when it must have moved, null when untimed. */
  | { type: 'turnBegan'; seat: number; playerId: string; deadline: string | null }
  | { type: 'dealFinished'; deal: number }
  | { type: 'gameFinished'; totals: number[]; places: number[]; winners: number[]; end: GameEnd | null };

export type OutboxEntryType = OutboxEntry['type'];

/** One job per committed write: the entries it caused, after the log entry `seq` of game `gameId`. */
export interface OutboxJob {
  gameId: string;
  seq: number;
  entries: OutboxEntry[];
}

/**
 * The job queue's task that carries outbox entries to one consumer: its payload is an
 * `OutboxDelivery`. (A payload that is a bare array of jobs is a whole batch queued by an older
 * server; it is split into deliveries.)
 */
export const OUTBOX_TASK = 'game.followUp';

/** One consumer's share of a relayed batch: its entries, oldest first. */
export interface OutboxDelivery {
  /** The consumer, as `type.name`. */
  consumer: string;
  jobs: OutboxJob[];
}

/**
 * Writes the job into the outbox table: use it in a data-modifying CTE that selects from the
 * guarded UPDATE, so that a write that lost its race writes nothing. A plain insert, so the move's
 * commit takes no lock beyond its own rows (a NOTIFY would serialise every commit).
 */
export function insertOutboxSql(job: OutboxJob, from: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`INSERT INTO outbox (game_id, seq, entries)
    SELECT ${job.gameId}::uuid, ${job.seq}::int, ${toJsonColumn(job.entries)}::jsonb FROM ${from}`;
}
