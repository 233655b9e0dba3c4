import { Module } from '@nestjs/common';
import { CompactionService } from './compaction.service.js';

/** The hourly job that compacts finished games' event logs (games/compact-log.ts reads them back). */
@Module({ providers: [CompactionService], exports: [CompactionService] })
export class CompactionModule {}
