import { Module } from '@nestjs/common';
import { RetentionService } from './retention.service.js';

/** The daily job that deletes what has outlived its retention (feeds, deliveries, ended sign-ins). */
@Module({ providers: [RetentionService], exports: [RetentionService] })
export class RetentionModule {}
