import { Inject, Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { z } from 'zod';
import { queryRows } from '../common/sql-query.js';
import { JobQueue, type GameJob } from '../outbox/job-queue.js';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import type { NewFeedEvent } from '../player-events/feed-events.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import {
  checkPoints,
  defaultReminderPoints,
  REMINDER_CHANNELS,
  reminderTimes,
  storedPoints,
  type ReminderPointDraft,
  type ReminderPoints,
} from './reminder-points.js';
import {
  deleteReminderTurnsSql,
  fireReminderSql,
  lockReminderSettingsSql,
  reminderSettingsSql,
  reminderTurnsSql,
  saveReminderSettingsSql,
  setReminderTurnSql,
  type ReminderTurnRow,
} from './reminders.sql.js';

export const REMINDER_TASK = 'game.reminder';

/** The time reminders are scheduled and fired by: the wall clock, or a test's. */
export const REMINDER_CLOCK = Symbol('reminder clock');
export type ReminderClock = () => number;

/** What a reminder's job carries: the turn it was made for and its moment. */
const reminderJob = z.object({
  gameId: z.string(),
  seq: z.number().int(),
  seat: z.number().int(),
  /** The deadline it was set against (ISO): a later one in the game means the turn was extended. */
  deadline: z.string(),
  before: z.number().int().positive(),
  channels: z.array(z.enum(REMINDER_CHANNELS)),
});
export type ReminderJob = z.output<typeof reminderJob>;

/**
 * A reminder job's key: one per turn and distinct moment, the moment being its whole seconds before
 * the deadline (stable while the turn lasts, whatever fired or moved).
 */
export const reminderKey = (gameId: string, seq: number, before: number) => `reminder:${gameId}:${seq}:${before}`;

/**
 * Reminders before a time-out. Each player chooses moments per channel (reminder-points.ts). When
 * a timed turn begins (the outbox's `turnBegan`), this consumer reads the game's current turn under
 * a per-game lock and sets one durable keyed job per distinct moment, merged across channels; the
 * keys of the turn before are removed in the same transaction (the move cancels them), and
 * `reminder_turns` remembers them. A job that fires writes a `turnReminder` feed event only while
 * its turn is still the game's (same seq, same seat) and marks it fired in the same statement, so
 * it fires at most once per turn across retries and instances. A deadline that moved later (a
 * vacation) sets the job again for the new moment instead.
 */
@Injectable()
export class RemindersService implements OnModuleInit {
  private readonly now: ReminderClock;

  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: JobQueue,
    private readonly feed: PlayerEventsService,
    @Optional() @Inject(REMINDER_CLOCK) clock: ReminderClock | null = null,
  ) {
    this.now = clock ?? Date.now;
  }

  onModuleInit(): void {
    this.jobs.task(REMINDER_TASK, (payload) => this.fire(reminderJob.parse(payload)));
  }

  /** The player's points per channel (the defaults until they choose). */
  async settings(playerId: string): Promise<ReminderPoints> {
    const [row] = await queryRows(this.prisma, reminderSettingsSql(playerId));
    if (!row) return defaultReminderPoints();
    return { push: storedPoints('push', row.push), email: storedPoints('email', row.email) };
  }

  /** Sets the channels given (an omitted one keeps its points); checked, BAD_INPUT naming the field. Applies from the next turn. */
  async setSettings(playerId: string, input: Partial<Record<'push' | 'email', readonly ReminderPointDraft[] | null>>): Promise<ReminderPoints> {
    const given = {
      push: input.push == null ? null : checkPoints('push', input.push),
      email: input.email == null ? null : checkPoints('email', input.email),
    };
    return this.prisma.$transaction(async (tx) => {
      // Read and written under the player's lock, so two partial updates (one channel each) both count.
      await tx.$executeRaw(lockReminderSettingsSql(playerId));
      const [row] = await queryRows(tx, reminderSettingsSql(playerId));
      const current = row ? { push: storedPoints('push', row.push), email: storedPoints('email', row.email) } : defaultReminderPoints();
      const points = { push: given.push ?? current.push, email: given.email ?? current.email };
      await tx.$executeRaw(saveReminderSettingsSql(playerId, points));
      return points;
    });
  }

  @OutboxConsumer('turnBegan', 'reminders')
  async turnsBegan(items: OutboxItem<'turnBegan'>[]): Promise<void> {
    await this.schedule(items.map((i) => i.gameId));
  }

  @OutboxConsumer('gameFinished', 'reminders')
  async gamesFinished(items: OutboxItem<'gameFinished'>[]): Promise<void> {
    await this.schedule(items.map((i) => i.gameId));
  }

  /**
   * Sets each game's reminder jobs to its current turn: the turn's moments as jobs, the keys of
   * any other turn removed; nothing left for a finished or untimed game, or a bot's turn.
   */
  async schedule(gameIds: readonly string[]): Promise<void> {
    await this.jobs.keepPerGame('reminder', gameIds, async (tx, ids) => {
      const turns = await queryRows(tx, reminderTurnsSql(ids));
      const set: GameJob[] = [];
      const remove: string[] = [];
      const done: string[] = [];
      const now = this.now();
      for (const turn of turns) {
        const jobs = this.jobsOf(turn, now);
        const keys = jobs.map((j) => j.key);
        remove.push(...turn.keys.filter((k) => !keys.includes(k)));
        set.push(...jobs);
        // A person's timed turn keeps its row (what fired) even with no job left; any other, none.
        if (remindable(turn)) await tx.$executeRaw(setReminderTurnSql(turn.id, turn.version, keys));
        else if (turn.reminded_seq !== null) done.push(turn.id);
      }
      if (done.length > 0) await tx.$executeRaw(deleteReminderTurnsSql(done));
      return { set, remove };
    });
  }

  /** The jobs of a game's current turn: one per distinct moment still ahead that has not fired. */
  private jobsOf(turn: ReminderTurnRow, now: number): GameJob[] {
    if (!remindable(turn)) return [];
    const points = {
      push: turn.push === null ? defaultReminderPoints().push : storedPoints('push', turn.push),
      email: turn.email === null ? defaultReminderPoints().email : storedPoints('email', turn.email),
    };
    const fired = turn.reminded_seq === turn.version ? new Set(turn.fired) : new Set<number>();
    const deadline = turn.deadline.toISOString();
    return reminderTimes(points, turn.started, turn.deadline!, now)
      .filter((r) => !fired.has(r.before))
      .map((r) => {
        const payload: ReminderJob = { gameId: turn.id, seq: turn.version, seat: turn.seat, deadline, before: r.before, channels: r.channels };
        return { task: REMINDER_TASK, key: reminderKey(turn.id, turn.version, r.before), payload, runAt: r.runAt };
      });
  }

  /**
   * A reminder's job fell due. Nothing if its turn is over (a move came first: same seq and seat or
   * nothing) or its deadline has passed; set again for the new moment if the deadline moved later;
   * else the player's feed gets `turnReminder`, once.
   */
  async fire(job: ReminderJob): Promise<void> {
    const [turn] = await queryRows(this.prisma, reminderTurnsSql([job.gameId]));
    if (!turn || !turn.active || turn.version !== job.seq || turn.seat !== job.seat || !turn.deadline || !turn.player_id) return;
    const now = this.now();
    const deadline = turn.deadline.getTime();
    if (deadline <= now) return;
    if (deadline > Date.parse(job.deadline) && deadline - job.before * 1000 > now) return this.postpone(job);
    // A deadline moved earlier leaves less than the chosen time: the reminder says what is left
    // (rounded up, so a job run a few milliseconds late still says its own moment).
    const before = Math.min(job.before, Math.ceil((deadline - now) / 1000));
    const reminder: NewFeedEvent = {
      playerId: turn.player_id,
      type: 'turnReminder',
      gameId: job.gameId,
      lobbyId: null,
      seq: null,
      payload: { gameId: job.gameId, seq: job.seq, seat: job.seat, deadline: turn.deadline.toISOString(), before, channels: job.channels },
    };
    const rows = await queryRows(this.prisma, fireReminderSql(reminder, job.gameId, job.seq, job.seat, job.before));
    this.feed.published(rows.map((r) => ({ playerId: r.player_id })));
  }

  /** Sets the reminder's job again against the game's later deadline (its own key, the same time before it). */
  private async postpone(job: ReminderJob): Promise<void> {
    await this.jobs.keepPerGame('reminder', [job.gameId], async (tx) => {
      const [turn] = await queryRows(tx, reminderTurnsSql([job.gameId]));
      const key = reminderKey(job.gameId, job.seq, job.before);
      // Another turn began meanwhile, or the turn's jobs were set anew: they stand as they are.
      if (!turn?.active || turn.version !== job.seq || turn.seat !== job.seat || !turn.deadline || !turn.keys.includes(key)) {
        return { set: [], remove: [] };
      }
      const payload: ReminderJob = { ...job, deadline: turn.deadline.toISOString() };
      return { set: [{ task: REMINDER_TASK, key, payload, runAt: new Date(turn.deadline.getTime() - job.before * 1000) }], remove: [] };
    });
  }
}

/** A turn someone can be reminded of: a person's, in an active game, with a deadline. */
function remindable(turn: ReminderTurnRow): turn is ReminderTurnRow & { seat: number; deadline: Date; started: Date; player_id: string } {
  return turn.active && turn.seat !== null && turn.deadline !== null && turn.started !== null && turn.player_id !== null;
}
