import { Module } from '@nestjs/common';
import { PlayerEventsService } from './player-events.service.js';

@Module({ providers: [PlayerEventsService], exports: [PlayerEventsService] })
export class PlayerEventsModule {}
