import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { WakeSource } from '../common/live-tail.js';
import { InstanceBus } from '../instance-bus/instance-bus.js';

/**
 * Tells followers of a game that its event log grew, after the commit. It carries no events:
 * the game's live tail (GameFollowers) reads the log after the last entry it handed out, once for
 * all followers, and every entry goes through the per-seat redaction on the way out. Other
 * instances hear of it over the instance bus (Redis, with REDIS_URL); tails also re-read on a timer.
 * One listener per followed game, not per follower (`listeners` counts them; tests check that a
 * game's last follower leaves none behind).
 */
@Injectable()
export class GameLogBus {
  private readonly emitter = new EventEmitter();
  private readonly remote = new Set<(gameId: string, version: number) => void>();

  constructor(private readonly bus: InstanceBus) {
    // events.on adds an `error` listener per followed game beside its own: no limit to warn at.
    this.emitter.setMaxListeners(0);
    bus.on('game-log', (payload) => {
      const [gameId, version] = payload.split(' ');
      if (!gameId) return;
      for (const listener of this.remote) listener(gameId, Number(version));
      if (this.emitter.listenerCount(gameId) > 0) this.emitter.emit(gameId, Number(version));
    });
    // Notices were lost while Redis was away: every followed game is read again now.
    bus.onReconnect(() => {
      for (const gameId of this.emitter.eventNames()) if (gameId !== 'error') this.emitter.emit(gameId, -1);
    });
  }

  /** After a commit: this instance's followers now, the other instances' through the bus. */
  published(gameId: string, version: number): void {
    this.emitter.emit(gameId, version);
    this.bus.publish('game-log', `${gameId} ${version}`);
  }

  /** Every game's commits made on other instances (the game cache drops what they made stale). */
  listenRemote(listener: (gameId: string, version: number) => void): () => void {
    this.remote.add(listener);
    return () => this.remote.delete(listener);
  }

  /** What wakes a tail of the game's log (the version committed, or -1 after a reconnect). */
  wakes(gameId: string): WakeSource {
    return { emitter: this.emitter, event: gameId };
  }

  listen(gameId: string, listener: (version: number) => void): () => void {
    this.emitter.on(gameId, listener);
    return () => this.emitter.off(gameId, listener);
  }
}
