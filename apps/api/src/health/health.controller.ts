import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, PrismaHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator.js';
import { InstanceBus } from '../instance-bus/instance-bus.js';
import { PrismaService } from '../prisma/prisma.service.js';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly prismaIndicator: PrismaHealthIndicator,
    private readonly prisma: PrismaService,
    private readonly bus: InstanceBus,
  ) {}

  /** Liveness: the process answers. */
  @Get()
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /**
   * Readiness: the database answers within a second and a half. With REDIS_URL, Redis is reported
   * too, but as degraded rather than down when it does not answer: moves go on without it (other
   * instances' streams fall back to re-reading), so the instance stays in the load balancer.
   */
  @Get('ready')
  @HealthCheck()
  ready() {
    const state = this.bus.state();
    return this.health.check([
      () => this.prismaIndicator.pingCheck('database', this.prisma).withTimeout(1500),
      ...(state === 'single' ? [] : [() => ({ redis: { status: 'up' as const, state: state === 'up' ? 'up' : 'degraded' } })]),
    ]);
  }
}
