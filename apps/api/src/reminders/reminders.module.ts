import { Module } from '@nestjs/common';
import { RemindersController } from './reminders.controller.js';
import { RemindersResolver } from './reminders.resolver.js';
import { RemindersService } from './reminders.service.js';

/** Reminders before a time-out: the players' chosen moments, and a durable job per moment of each timed turn. */
@Module({ controllers: [RemindersController], providers: [RemindersService, RemindersResolver], exports: [RemindersService] })
export class RemindersModule {}
