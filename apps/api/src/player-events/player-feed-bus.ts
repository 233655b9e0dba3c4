import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

/**
 * Tells a player's live streams (myEvents, /me/events, webhook dispatch) that their feed grew,
 * after the commit. It carries no events: a stream reads the feed after its own last id, so a lost
 * notice costs only latency (streams also re-read on a timer). In-process; with several instances
 * this is where a shared bus comes in.
 */
@Injectable()
export class PlayerFeedBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0); // one per open stream of a player, capped by the live-connection quotas
  }

  published(playerIds: Iterable<string>): void {
    for (const id of new Set(playerIds)) this.emitter.emit(id);
    this.emitter.emit(ANY);
  }

  listen(playerId: string, listener: () => void): () => void {
    this.emitter.on(playerId, listener);
    return () => this.emitter.off(playerId, listener);
  }

  /** Any player's feed grew (for a dispatcher that serves many players). */
  listenAll(listener: () => void): () => void {
    this.emitter.on(ANY, listener);
    return () => this.emitter.off(ANY, listener);
  }

  listeners(playerId: string): number {
    return this.emitter.listenerCount(playerId);
  }
}

const ANY = Symbol('any player');
