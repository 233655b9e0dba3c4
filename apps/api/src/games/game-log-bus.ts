import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

/**
 * Tells followers of a game that its event log grew, after the commit. It carries no events:
 * the game's hub (GameFollowers) reads the log after the last entry it handed out, once for all
 * followers, and every entry goes through the per-seat redaction on the way out. In-process for
 * now; with several instances this is where Redis pub/sub comes in (hubs also re-read on a timer).
 * One listener per followed game, not per follower: the default listener limit stays, so a leak
 * shows up as Node's warning.
 */
@Injectable()
export class GameLogBus {
  private readonly emitter = new EventEmitter();

  published(gameId: string, version: number): void {
    this.emitter.emit(gameId, version);
  }

  /** Listeners of one game (for tests and metrics). */
  listeners(gameId: string): number {
    return this.emitter.listenerCount(gameId);
  }

  listen(gameId: string, listener: (version: number) => void): () => void {
    this.emitter.on(gameId, listener);
    return () => this.emitter.off(gameId, listener);
  }
}
