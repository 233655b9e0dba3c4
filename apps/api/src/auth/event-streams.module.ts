import { Module } from '@nestjs/common';
import { EventStreams } from './event-streams.js';

/**
 * Server-sent event streams, imported by the features that serve them. Not global on purpose:
 * Nest destroys deeper modules first, so open streams end before GraphQLModule's shutdown, whose
 * HTTP drain would otherwise wait its 10 s grace period for them.
 */
@Module({ providers: [EventStreams], exports: [EventStreams] })
export class EventStreamsModule {}
