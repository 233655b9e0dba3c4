import { applyDecorators, Injectable, SetMetadata, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';

/**
 * Deprecation instead of removal on REST (docs/api.md#versioning-and-compatibility). A deprecated
 * route, or a route's deprecated query parameter, keeps working until its sunset, at least
 * MIN_MONTHS_TO_SUNSET after it was deprecated; meanwhile every answer that used it says so:
 * `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <HTTP date>` (RFC 8594) and a `Link` with
 * rel="deprecation" to GET /api/v1/deprecations, which lists them all.
 */
export interface DeprecationNotice {
  /** The day it was deprecated, `YYYY-MM-DD` (UTC). */
  since: string;
  /** The earliest day it may be removed, `YYYY-MM-DD` (UTC): at least MIN_MONTHS_TO_SUNSET after `since`. */
  sunset: string;
  /** What to use instead, in words. */
  instead: string;
  /** Only this query parameter of the route is deprecated: the headers go out when a request sends it. */
  parameter?: string;
}

export const MIN_MONTHS_TO_SUNSET = 6;
export const DEPRECATIONS_PATH = '/api/v1/deprecations';
const DEPRECATION = Symbol('deprecation');

function day(text: string, field: string): Date {
  const date = new Date(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(date.getTime())) throw new Error(`@Deprecated: ${field} "${text}" is not a YYYY-MM-DD day`);
  return date;
}

/** Checks a notice: the dates are days and the sunset leaves clients the documented time. */
export function checkNotice(notice: DeprecationNotice): { since: Date; sunset: Date } {
  const since = day(notice.since, 'since');
  const sunset = day(notice.sunset, 'sunset');
  const earliest = new Date(since);
  earliest.setUTCMonth(earliest.getUTCMonth() + MIN_MONTHS_TO_SUNSET);
  if (sunset < earliest) {
    throw new Error(`@Deprecated: the sunset ${notice.sunset} is less than ${MIN_MONTHS_TO_SUNSET} months after ${notice.since}`);
  }
  return { since, sunset };
}

/** The three headers for a notice. */
export function deprecationHeaders(notice: DeprecationNotice): Record<string, string> {
  const { since, sunset } = checkNotice(notice);
  return {
    Deprecation: `@${Math.floor(since.getTime() / 1000)}`,
    Sunset: sunset.toUTCString(),
    Link: `<${DEPRECATIONS_PATH}>; rel="deprecation"; type="application/json"`,
  };
}

/**
 * Marks a REST handler (or one of its query parameters) deprecated. For a whole route the OpenAPI
 * operation gets `deprecated: true`; for a parameter, its DTO property says `deprecated: true`
 * (@ApiPropertyOptional), since that is where the document describes it.
 */
export function Deprecated(notice: DeprecationNotice): MethodDecorator {
  checkNotice(notice);
  const markOperation: MethodDecorator = (_target, _key, descriptor) => {
    if (notice.parameter === undefined) {
      // @nestjs/swagger's ApiOperation would also write an empty summary; merge into what is there.
      const previous = (Reflect.getMetadata(API_OPERATION, descriptor.value as object) ?? {}) as object;
      Reflect.defineMetadata(API_OPERATION, { ...previous, deprecated: true }, descriptor.value as object);
    }
    return descriptor;
  };
  return applyDecorators(markOperation, SetMetadata(DEPRECATION, notice), UseInterceptors(DeprecationInterceptor));
}

const API_OPERATION = 'swagger/apiOperation';

@Injectable()
export class DeprecationInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const notice = this.reflector.get<DeprecationNotice | undefined>(DEPRECATION, context.getHandler());
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    if (notice && (notice.parameter === undefined || request.query?.[notice.parameter] !== undefined)) {
      http.getResponse<Response>().set(deprecationHeaders(notice));
    }
    return next.handle();
  }
}

/** The notice a handler carries, if it is deprecated. */
export function deprecationOf(handler: unknown): DeprecationNotice | undefined {
  return typeof handler === 'function' ? (Reflect.getMetadata(DEPRECATION, handler) as DeprecationNotice | undefined) : undefined;
}
