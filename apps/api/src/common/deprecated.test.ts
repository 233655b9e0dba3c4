import { Controller, Get, Query, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNotice, Deprecated, deprecationHeaders } from './deprecated.js';

// A controller of this test only: no route of the API is deprecated as a whole (yet).
@Controller('old')
class OldController {
  @Get()
  @Deprecated({ since: '2026-01-15', sunset: '2026-07-15', instead: 'GET /new' })
  old() {
    return { old: true };
  }

  @Get('paged')
  @Deprecated({ parameter: 'limit', since: '2026-01-15', sunset: '2026-08-01', instead: 'first' })
  paged(@Query('limit') limit?: string) {
    return { limit: limit ?? null };
  }
}

let app: INestApplication;
let base: string;
beforeAll(async () => {
  const module = await Test.createTestingModule({ controllers: [OldController] }).compile();
  app = module.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
});
afterAll(async () => {
  await app?.close();
});

describe('@Deprecated', () => {
  it('marks the route deprecated in OpenAPI and sends Deprecation, Sunset and Link on every answer', async () => {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(document.paths['/old'].get).toMatchObject({ deprecated: true });
    expect(document.paths['/old'].get).not.toHaveProperty('summary');
    expect(document.paths['/old/paged'].get).not.toHaveProperty('deprecated');

    const answer = await fetch(`${base}/old`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 0, 15) / 1000}`);
    expect(answer.headers.get('sunset')).toBe('Wed, 15 Jul 2026 00:00:00 GMT');
    expect(answer.headers.get('link')).toBe('</api/v1/deprecations>; rel="deprecation"; type="application/json"');
  });

  it('for a deprecated parameter, says so only when the request sends it', async () => {
    const without = await fetch(`${base}/old/paged`);
    expect(without.headers.get('deprecation')).toBeNull();
    const withIt = await fetch(`${base}/old/paged?limit=3`);
    expect(await withIt.json()).toEqual({ limit: '3' });
    expect(withIt.headers.get('sunset')).toBe('Sat, 01 Aug 2026 00:00:00 GMT');
  });

  it('refuses a sunset sooner than six months after the deprecation, and a day that is not one', () => {
    expect(() => checkNotice({ since: '2026-01-31', sunset: '2026-07-30', instead: 'x' })).toThrow(/less than 6 months after 2026-01-31/);
    expect(() => checkNotice({ since: '2026-02-30x', sunset: '2027-01-01', instead: 'x' })).toThrow(/not a YYYY-MM-DD day/);
    expect(() => Deprecated({ since: '2026-01-01', sunset: '2026-03-01', instead: 'x' })).toThrow(/less than 6 months/);
    expect(deprecationHeaders({ since: '2026-01-31', sunset: '2026-07-31', instead: 'x' }).Sunset).toBe('Fri, 31 Jul 2026 00:00:00 GMT');
  });
});
