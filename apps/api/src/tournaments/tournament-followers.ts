import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EventEmitter } from 'node:events';
import { LiveTails, type WakeSource } from '../common/live-tail.js';
import type { AppConfig } from '../config/app-config.js';
import { InstanceBus } from '../instance-bus/instance-bus.js';
import { PrismaService } from '../prisma/prisma.service.js';

/**
 * Tells a tournament's followers that it changed, after the commit; the notice carries nothing (the
 * tail reads the row), so a lost one costs latency only. Other instances hear of it over the
 * instance bus.
 */
@Injectable()
export class TournamentBus {
  private readonly emitter = new EventEmitter();

  constructor(private readonly bus: InstanceBus) {
    this.emitter.setMaxListeners(0);
    bus.on('tournament', (id) => {
      if (this.emitter.listenerCount(id) > 0) this.emitter.emit(id);
    });
    // Notices were lost while Redis was away: every followed tournament is read again now.
    bus.onReconnect(() => {
      for (const key of this.emitter.eventNames()) if (key !== 'error') this.emitter.emit(key);
    });
  }

  published(id: string): void {
    this.emitter.emit(id);
    this.bus.publish('tournament', id);
  }

  wakes(id: string): WakeSource {
    return { emitter: this.emitter, event: id };
  }
}

/** A change of a tournament: its row's updated_at, in ms (the stream's position and event id). */
export interface TournamentChange {
  at: number;
}

const logger = new Logger('TournamentFollowers');

/**
 * The followers of a tournament (its SSE stream) share one live tail per tournament (LiveTails, as
 * a game's log and a chat room): one read of the row's updated_at per change for all of them, woken
 * by the TournamentBus, with a poll as the safety net. A change is the whole tournament again: a
 * follower sends the current view, so two changes read as one lose nothing.
 */
@Injectable()
export class TournamentFollowers extends LiveTails<number, TournamentChange> implements OnModuleDestroy {
  constructor(prisma: PrismaService, bus: TournamentBus, config: ConfigService<AppConfig, true>) {
    super({
      name: 'tournament',
      read: async (id, after) => {
        const row = await prisma.tournament.findFirst({ where: { id, updatedAt: { gt: new Date(after) } }, select: { updatedAt: true } });
        return row ? [{ at: row.updatedAt.getTime() }] : [];
      },
      position: (change) => change.at,
      isAfter: (a, b) => a > b,
      wake: (id) => bus.wakes(id),
      pollMs: config.get('redisUrl', { infer: true }) === null ? 60_000 : 5_000,
      batch: 1,
      page: 1,
      failed: (id, error) => logger.warn(`reading tournament ${id} failed: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  onModuleDestroy(): void {
    this.closeAll();
  }
}
