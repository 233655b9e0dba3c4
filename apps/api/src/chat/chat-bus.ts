import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { WakeSource } from '../common/live-tail.js';
import { InstanceBus } from '../instance-bus/instance-bus.js';

/**
 * Tells followers of a chat room (by its key, chat-room.ts) that it has a new message, after the
 * commit; like GameLogBus, the notice carries no text: the room's live tail reads it, so a lost
 * notice costs latency only. Other instances hear of it over the instance bus.
 */
@Injectable()
export class ChatBus {
  private readonly emitter = new EventEmitter();

  constructor(private readonly bus: InstanceBus) {
    this.emitter.setMaxListeners(0);
    bus.on('chat', (payload) => {
      const [key, seq] = payload.split(' ');
      if (key && this.emitter.listenerCount(key) > 0) this.emitter.emit(key, Number(seq));
    });
    // Notices were lost while Redis was away: every followed room is read again now.
    bus.onReconnect(() => {
      for (const key of this.emitter.eventNames()) if (key !== 'error') this.emitter.emit(key, -1);
    });
  }

  published(key: string, seq: number): void {
    this.emitter.emit(key, seq);
    this.bus.publish('chat', `${key} ${seq}`);
  }

  wakes(key: string): WakeSource {
    return { emitter: this.emitter, event: key };
  }
}
