import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobQueue } from './job-queue.js';
import { Outbox } from './outbox.js';

/**
 * The job queue and the outbox relay, shared by every feature that runs jobs or reacts to moves
 * (they sit below them all). Consumers are found on the providers at start-up (DiscoveryModule).
 */
@Global()
@Module({ imports: [DiscoveryModule], providers: [JobQueue, Outbox], exports: [JobQueue, Outbox] })
export class OutboxModule {}
