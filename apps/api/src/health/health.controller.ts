import { Controller, Get, Logger, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HealthCheck, HealthCheckService, PrismaHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator.js';
import { SERVER_VERSION } from '../common/server-version.js';
import { InstanceBus } from '../instance-bus/instance-bus.js';
import { PrismaService } from '../prisma/prisma.service.js';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Health');

  constructor(
    private readonly health: HealthCheckService,
    private readonly prismaIndicator: PrismaHealthIndicator,
    private readonly prisma: PrismaService,
    private readonly bus: InstanceBus,
  ) {}

  /** Liveness: the process answers, and says which release it runs. */
  @Get()
  @HealthCheck()
  async live() {
    return { ...(await this.health.check([])), version: SERVER_VERSION };
  }

  /**
   * Readiness: the database answers within a second and a half. With REDIS_URL, Redis is reported
   * too, but as degraded rather than down when it does not answer: moves go on without it (other
   * instances' streams fall back to re-reading), so the instance stays in the load balancer.
   */
  @Get('ready')
  @HealthCheck()
  async ready(@Res({ passthrough: true }) res: Response) {
    const state = this.bus.state();
    try {
      return await this.health.check([
        () => this.prismaIndicator.pingCheck('database', this.prisma).withTimeout(1500),
        ...(state === 'single' ? [] : [() => ({ redis: { status: 'up' as const, state: state === 'up' ? 'up' : 'degraded' } })]),
      ]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      // Not ready is an answer (while the server boots, every probe gets it), not a fault: a 503
      // with Terminus's report, logged at info without a stack, not an INTERNAL error.
      const report = error.getResponse();
      this.logger.log({ health: report }, 'not ready');
      res.status(503);
      return report;
    }
  }
}
