import { Global, Module } from '@nestjs/common';
import { InstanceBus } from './instance-bus.js';

/** Notices between server instances (Redis pub/sub with REDIS_URL). */
@Global()
@Module({ providers: [InstanceBus], exports: [InstanceBus] })
export class InstanceBusModule {}
