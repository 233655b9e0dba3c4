import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { DeprecationsController } from './deprecations.controller.js';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { ServerInfoController } from './server-info.controller.js';
import { ServerInfoResolver } from './server-info.resolver.js';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), DiscoveryModule],
  controllers: [HealthController, MetricsController, ServerInfoController, DeprecationsController],
  providers: [ServerInfoResolver],
})
export class HealthModule {}
