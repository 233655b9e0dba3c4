import type { GameEnd } from '@mizerka/rules';
import { Prisma } from '../generated/prisma/client.js';

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

/** The job queue's task that carries outbox jobs. */
export const OUTBOX_TASK = 'game.followUp';

/** The schema the job queue (graphile-worker) keeps its tables and functions in. */
export const JOB_QUEUE_SCHEMA = 'graphile_worker';

/**
 * An expression that queues the job when evaluated: use it in a CTE that selects from the
 * guarded UPDATE, so that a write that lost its race queues nothing.
 */
export function addOutboxJobSql(job: OutboxJob): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(JOB_QUEUE_SCHEMA)}.add_job(${OUTBOX_TASK}::text, ${JSON.stringify(job)}::json)`;
}
