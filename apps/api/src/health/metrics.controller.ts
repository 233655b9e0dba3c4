import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { OwnBearer } from '../auth/public.decorator.js';
import { notFound, unauthenticated } from '../common/errors.js';
import type { AppConfig } from '../config/app-config.js';
import { registry } from '../metrics/metrics.js';

/**
 * Prometheus metrics at /metrics, only with METRICS_TOKEN set and sent as a bearer token: the
 * figures say how busy the site is, which is not the public's business. Without the setting the
 * path does not exist.
 */
@ApiExcludeController()
@OwnBearer()
@Controller('metrics')
export class MetricsController {
  private readonly expected: Buffer | null;

  constructor(config: ConfigService<AppConfig, true>) {
    const token = config.get('metricsToken', { infer: true });
    this.expected = token === null ? null : digest(`Bearer ${token}`);
  }

  @Get()
  async metrics(@Headers('authorization') authorization: string | undefined, @Res() response: Response): Promise<void> {
    if (this.expected === null) throw notFound('Route');
    if (!timingSafeEqual(digest(authorization ?? ''), this.expected)) {
      throw unauthenticated('/metrics needs the METRICS_TOKEN as a bearer token');
    }
    response.type(registry.contentType).send(await registry.metrics());
  }
}

/** Equal-length digests, so that comparing them takes the same time whatever was sent. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
