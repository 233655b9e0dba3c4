import { Module } from '@nestjs/common';
import { PartitionsService } from './partitions.service.js';
import { RetentionService } from './retention.service.js';

/**
 * The daily job that deletes what has outlived its retention (feeds, deliveries, ended sign-ins),
 * and the job that keeps the feed's monthly partitions made ahead.
 */
@Module({ providers: [RetentionService, PartitionsService], exports: [RetentionService, PartitionsService] })
export class RetentionModule {}
