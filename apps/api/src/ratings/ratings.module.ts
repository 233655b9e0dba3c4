import { Module } from '@nestjs/common';
import { RatingsController } from './ratings.controller.js';
import { RatingsResolver } from './ratings.resolver.js';
import { RatingsService } from './ratings.service.js';

/** Ratings at a rated game's end (an outbox consumer), rating histories and leaderboards. */
@Module({ controllers: [RatingsController], providers: [RatingsService, RatingsResolver], exports: [RatingsService] })
export class RatingsModule {}
