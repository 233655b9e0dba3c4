import { Global, Module } from '@nestjs/common';
import { Outbox } from './outbox.js';

/** The outbox consumer, shared by every feature that reacts to moves (it sits below them all). */
@Global()
@Module({ providers: [Outbox], exports: [Outbox] })
export class OutboxModule {}
