import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { GameLogBus } from './game-log-bus.js';

/** A stored log entry, with everyone's cards: it never leaves this folder unredacted. */
export interface LogRow {
  seq: number;
  kind: string;
  dealIndex: number;
  seat: number | null;
  actor: string;
  cause: string | null;
  events: unknown;
  createdAt: Date;
  deadline: Date | null;
}

export const LOG_ROW = {
  seq: true,
  kind: true,
  dealIndex: true,
  seat: true,
  actor: true,
  cause: true,
  events: true,
  createdAt: true,
  deadline: true,
} as const;

/** What a hub hands new entries to: one live follower. */
export interface HubMember {
  deliver(rows: readonly LogRow[]): void;
}

export interface Membership {
  /**
   * The game's version as the member read it right after joining: it reads everything up to
   * there itself, the hub must hand it everything after.
   */
  from(version: number): void;
  leave(): void;
}

const READ_PAGE = 200;

/** One game's followers on this instance, and where its shared reads have got to. */
class Hub {
  readonly members = new Set<HubMember>();
  /** Every entry up to here has been handed to every member (null: no member has said where it stands). */
  known: number | null = null;
  /** Set when a member asks for less than `known` while a read runs: the read's end is lowered to it. */
  floor: number | null = null;
  dirty = false;
  reading = false;
  stopListening: () => void = () => undefined;
  poll: NodeJS.Timeout | null = null;
}

/**
 * Followers of a game (the `gameLog` subscription) share one hub per game: after each
 * notification of the GameLogBus the hub reads the entries after the last one it handed out,
 * once, and hands them to every follower, which redacts them for its own seat. N followers of a
 * game cost one read per new entry, not N. The hub listens on the bus once per game (not once per
 * follower) and goes away with its last follower.
 *
 * A follower joins before it reads the log itself, then tells the hub the version it read
 * (`from`): entries after that were committed after it joined, so a read of the hub hands them to
 * it; entries up to it are in its own read. A hub whose position is ahead of a newcomer's goes
 * back to it (the others skip what they already have).
 *
 * Moves made through another instance reach this one's bus over Redis (REDIS_URL). A notice can be
 * lost (Redis away), so with members the hub also looks every few seconds (a minute with a single
 * instance, as a safety net), and reads at once when the bus reconnects.
 */
@Injectable()
export class GameFollowers implements OnModuleDestroy {
  private readonly logger = new Logger(GameFollowers.name);
  private readonly hubs = new Map<string, Hub>();
  private readonly pollMs: number;
  /** Shared reads of new entries made so far (each a single statement). */
  reads = 0;

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: GameLogBus,
    config: ConfigService<AppConfig, true>,
  ) {
    this.pollMs = config.get('redisUrl', { infer: true }) === null ? 60_000 : 5_000;
  }

  /** Followers of `gameId` on this instance (0 once the last one left). */
  followers(gameId: string): number {
    return this.hubs.get(gameId)?.members.size ?? 0;
  }

  /** Games with at least one follower on this instance. */
  games(): number {
    return this.hubs.size;
  }

  join(gameId: string, member: HubMember): Membership {
    let hub = this.hubs.get(gameId);
    if (!hub) {
      const created = new Hub();
      created.stopListening = this.bus.listen(gameId, () => this.wake(gameId, created));
      created.poll = setInterval(() => this.wake(gameId, created), this.pollMs).unref();
      this.hubs.set(gameId, created);
      hub = created;
    }
    const joined = hub;
    joined.members.add(member);
    let left = false;
    return {
      from: (version) => {
        // A hub at or behind this version will hand the member everything after it anyway.
        if (left || (joined.known !== null && version >= joined.known)) return;
        if (joined.reading) {
          joined.floor = Math.min(joined.floor ?? version, version); // the read under way goes back there when done
          return;
        }
        const wentBack = joined.known !== null;
        joined.known = version;
        // Read now if the hub went back, or was told of new entries before it knew where it stood.
        if (wentBack || joined.dirty) this.wake(gameId, joined);
      },
      leave: () => {
        if (left) return;
        left = true;
        joined.members.delete(member);
        if (joined.members.size === 0 && this.hubs.get(gameId) === joined) this.close(gameId, joined);
      },
    };
  }

  onModuleDestroy(): void {
    for (const [gameId, hub] of this.hubs) this.close(gameId, hub);
  }

  private close(gameId: string, hub: Hub): void {
    hub.stopListening();
    if (hub.poll) clearInterval(hub.poll);
    hub.poll = null;
    hub.members.clear();
    this.hubs.delete(gameId);
  }

  private wake(gameId: string, hub: Hub): void {
    hub.dirty = true;
    if (hub.reading || hub.known === null || hub.members.size === 0) return;
    void this.readNew(gameId, hub);
  }

  /** Reads what is new, once, for all members; again while something was announced meanwhile. */
  private async readNew(gameId: string, hub: Hub): Promise<void> {
    hub.reading = true;
    try {
      while (hub.dirty && hub.members.size > 0 && hub.known !== null) {
        hub.dirty = false;
        const rows = await this.prisma.gameEvent.findMany({
          where: { gameId, seq: { gt: hub.known } },
          orderBy: { seq: 'asc' },
          take: READ_PAGE,
          select: LOG_ROW,
        });
        this.reads++;
        if (rows.length > 0) {
          hub.known = rows[rows.length - 1].seq;
          for (const member of [...hub.members]) member.deliver(rows);
        }
        if (rows.length === READ_PAGE) hub.dirty = true;
        if (hub.floor !== null) {
          if (hub.floor < hub.known) {
            hub.known = hub.floor;
            hub.dirty = true;
          }
          hub.floor = null;
        }
      }
    } catch (error) {
      // The database is away: try again at the next announcement or poll.
      hub.dirty = true;
      this.logger.warn(`reading new entries of game ${gameId} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      hub.reading = false;
    }
  }
}
