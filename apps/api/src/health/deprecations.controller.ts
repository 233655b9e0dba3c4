import { Controller, Get, RequestMethod, type OnModuleInit } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { deprecationOf } from '../common/deprecated.js';
import { DeprecationList, type DeprecationModel } from './models/server-info.model.js';

/**
 * GET /api/v1/deprecations: every deprecated REST route and parameter with its sunset, found on the
 * controllers at start-up. The `Link: rel="deprecation"` of a deprecated answer points here.
 */
@ApiTags('health')
@Public()
@Controller('deprecations')
export class DeprecationsController implements OnModuleInit {
  private listed: DeprecationModel[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onModuleInit(): void {
    const listed: DeprecationModel[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || !wrapper.metatype) continue;
      const base = (Reflect.getMetadata(PATH_METADATA, wrapper.metatype) as string | undefined) ?? '';
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        const notice = deprecationOf(handler);
        if (!notice) continue;
        const path = (Reflect.getMetadata(PATH_METADATA, handler as object) as string | undefined) ?? '';
        const method = RequestMethod[(Reflect.getMetadata(METHOD_METADATA, handler as object) as RequestMethod | undefined) ?? RequestMethod.GET];
        const route = ['api/v1', base, path]
          .join('/')
          .replace(/\/+/g, '/')
          .replace(/\/$/, '')
          .replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        listed.push({ route: `${method} /${route}`, parameter: notice.parameter ?? null, since: notice.since, sunset: notice.sunset, instead: notice.instead });
      }
    }
    this.listed = listed.sort((a, b) => a.route.localeCompare(b.route));
  }

  @Get()
  @ApiOkResponse({ type: DeprecationList, description: 'Every deprecated REST route and parameter, with the day it goes' })
  list(): DeprecationList {
    return { deprecations: this.listed };
  }
}
