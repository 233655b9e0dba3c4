import { notFound } from '../common/errors.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import { eventViews } from './event-views.js';
import { type GameFollowers, LOG_ROW, type LogRow, type Membership } from './game-followers.js';
import type { GameLogEntry } from './models/event-view.model.js';

const CATCH_UP_PAGE = 100;
const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/** A stored entry as `seat` may see it (null: a spectator), through the one redaction point. */
export function logEntryView(row: LogRow, seat: number | null): GameLogEntry {
  return {
    seq: row.seq,
    kind: row.kind as GameLogEntry['kind'],
    dealIndex: row.dealIndex,
    seat: row.seat,
    actor: row.actor as GameLogEntry['actor'],
    cause: row.cause,
    createdAt: row.createdAt,
    deadline: row.deadline,
    events: eventViews(row.seq, row.events, seat),
  };
}

/**
 * One `gameLog` subscription: the log after `after`, read page by page as the subscriber takes it,
 * then what the game's hub hands over, each entry redacted for the subscriber's seat. It ends after
 * the entry that ends the game, at once when a finished game has nothing after `after`, and at once
 * when it is returned (the client completes it, its socket closes) or its signal aborts: a pending
 * `next()` then resolves as done, nothing waits out a timer.
 */
export class GameLogFollower implements AsyncIterableIterator<GameLogEntry> {
  private last: number;
  private seat: number | null = null;
  private finishedAtStart = false;
  private started = false;
  private caughtUp = false;
  private ended = false;
  private endAfterThis = false;
  private page: LogRow[] = [];
  /** Rows handed over by the hub, in seq order; those not after `last` are dropped when taken. */
  private handed: LogRow[] = [];
  private wake: (() => void) | null = null;
  private membership: Membership | null = null;
  private readonly onAbort = () => this.end();

  constructor(
    private readonly prisma: PrismaService,
    private readonly followers: GameFollowers,
    private readonly gameId: string,
    private readonly viewerId: string,
    after: number,
    private readonly signal?: AbortSignal,
  ) {
    this.last = after;
    if (signal?.aborted) this.ended = true;
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<GameLogEntry, undefined>> {
    try {
      if (!this.started) {
        this.started = true;
        if (!this.ended) await this.start();
      }
      for (;;) {
        if (this.ended) return DONE;
        if (this.endAfterThis) return this.end();
        const row = this.take();
        if (row) {
          this.last = row.seq;
          const entry = logEntryView(row, this.seat);
          if (entry.events.some((e) => e.type === 'gameOver')) this.endAfterThis = true;
          return { value: entry, done: false };
        }
        if (!this.caughtUp) await this.readPage();
        else if (this.finishedAtStart) return this.end();
        else await this.nextHanding();
      }
    } catch (error) {
      this.end();
      throw error;
    }
  }

  async return(): Promise<IteratorResult<GameLogEntry, undefined>> {
    return this.end();
  }

  async throw(error?: unknown): Promise<IteratorResult<GameLogEntry, undefined>> {
    this.end();
    throw error;
  }

  /** Joins the game's hub, then reads where the game stands (the hub hands over what follows). */
  private async start(): Promise<void> {
    this.membership = this.followers.join(this.gameId, {
      deliver: (rows) => {
        if (this.ended) return;
        const fresh = rows.filter((r) => r.seq > this.last);
        if (fresh.length === 0) return;
        const before = this.handed.at(-1)?.seq ?? -1;
        this.handed.push(...fresh);
        if (fresh[0].seq <= before) this.handed.sort((a, b) => a.seq - b.seq);
        this.wake?.();
      },
    });
    const game = await this.prisma.game.findUnique({
      where: { id: this.gameId },
      select: { version: true, status: true, seats: { where: { playerId: this.viewerId }, select: { seat: true } } },
    });
    if (!game) throw notFound('Game');
    if (this.ended) return;
    this.seat = game.seats[0]?.seat ?? null;
    // Everything of a finished game is committed: what the catch-up reads is all there is.
    this.finishedAtStart = game.status === 'finished';
    this.membership.from(game.version);
  }

  private async readPage(): Promise<void> {
    const rows = await this.prisma.gameEvent.findMany({
      where: { gameId: this.gameId, seq: { gt: this.last } },
      orderBy: { seq: 'asc' },
      take: CATCH_UP_PAGE,
      select: LOG_ROW,
    });
    this.page = rows;
    if (rows.length < CATCH_UP_PAGE) this.caughtUp = true;
  }

  private take(): LogRow | undefined {
    while (this.page.length > 0) {
      const row = this.page.shift()!;
      if (row.seq > this.last) return row;
    }
    if (!this.caughtUp) return undefined;
    while (this.handed.length > 0) {
      const row = this.handed.shift()!;
      if (row.seq > this.last) return row;
    }
    return undefined;
  }

  /** Until the hub hands something over, or the follower ends. */
  private nextHanding(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
    });
  }

  private end(): IteratorReturnResult<undefined> {
    if (!this.ended) {
      this.ended = true;
      this.signal?.removeEventListener('abort', this.onAbort);
      this.membership?.leave();
      this.page = [];
      this.handed = [];
    }
    this.wake?.();
    return DONE;
  }
}
