import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

/**
 * Tells followers of a game that its event log grew, after the commit. It carries no events:
 * a follower reads the log after its own last seq, so nothing is missed or seen twice, and
 * every entry goes through the per-seat redaction on the way out. In-process for now; with
 * several instances this is where Redis pub/sub comes in (followers also re-read on a timer).
 */
@Injectable()
export class GameLogBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  published(gameId: string, version: number): void {
    this.emitter.emit(gameId, version);
  }

  listen(gameId: string, listener: (version: number) => void): () => void {
    this.emitter.on(gameId, listener);
    return () => this.emitter.off(gameId, listener);
  }
}
