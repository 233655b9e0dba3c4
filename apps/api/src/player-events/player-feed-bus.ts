import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { WakeSource } from '../common/live-tail.js';
import { InstanceBus } from '../instance-bus/instance-bus.js';

/**
 * Tells a player's live streams (myEvents, /me/events, webhook dispatch) that their feed grew,
 * after the commit. It carries no events: a stream reads the feed after its own last id, so a lost
 * notice costs only latency (streams also re-read on a timer). Other instances hear of it over
 * the instance bus (Redis, with REDIS_URL).
 */
@Injectable()
export class PlayerFeedBus {
  private readonly emitter = new EventEmitter();

  constructor(private readonly bus: InstanceBus) {
    this.emitter.setMaxListeners(0); // one per open stream of a player, capped by the live-connection quotas
    bus.on('feed', (payload) => {
      const [tx, ...ids] = payload.split(' ');
      this.notify(ids, /^\d+$/.test(tx) ? BigInt(tx) : null);
    });
    // Notices were lost while Redis was away: every followed feed is read again now.
    // (`error` is events.on's own listener, not a player.)
    bus.onReconnect(() => this.notify(this.emitter.eventNames().filter((name): name is string => typeof name === 'string' && name !== 'error'), null));
  }

  /**
   * After a commit: this instance's streams now, the other instances' through the bus. `tx` is the
   * committed transaction when known: a reader that does not see its rows yet (the horizon) knows
   * to look again shortly.
   */
  published(playerIds: Iterable<string>, tx: bigint | null = null): void {
    const ids = [...new Set(playerIds)];
    if (ids.length === 0) return;
    this.notify(ids, tx);
    this.bus.publish('feed', `${tx ?? '-'} ${ids.join(' ')}`);
  }

  private notify(ids: readonly string[], tx: bigint | null): void {
    for (const id of ids) this.emitter.emit(id, tx);
    this.emitter.emit(ANY, ids, tx);
  }

  /** What wakes a tail of the player's feed (with the committed transaction when known, else null). */
  wakes(playerId: string): WakeSource {
    return { emitter: this.emitter, event: playerId };
  }

  listen(playerId: string, listener: (tx: bigint | null) => void): () => void {
    this.emitter.on(playerId, listener);
    return () => this.emitter.off(playerId, listener);
  }

  /** What wakes a dispatcher that serves many players: any player's feed grew (whose, and by which transaction when known). */
  wakesAll(): WakeSource {
    return { emitter: this.emitter, event: ANY };
  }
}

const ANY = Symbol('any player');
