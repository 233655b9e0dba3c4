import { Logger, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService } from '@nestjs/terminus';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /health/ready while not ready', () => {
  it('answers 503 with the health report, logged at info without a stack, never as an error', async () => {
    const report = { status: 'error', info: {}, error: { database: { status: 'down' } }, details: { database: { status: 'down' } } };
    const check = vi.spyOn(t.app.get(HealthCheckService), 'check').mockRejectedValue(new ServiceUnavailableException(report));
    const error = vi.spyOn(Logger.prototype, 'error');
    const info = vi.spyOn(Logger.prototype, 'log');
    try {
      const answer = await fetch(`${t.baseUrl}/health/ready`);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual(report);
      expect(error).not.toHaveBeenCalled();
      const logged = info.mock.calls.find((call) => JSON.stringify(call).includes('not ready'));
      expect(logged).toBeDefined();
      expect(JSON.stringify(logged)).not.toMatch(/\bat .*\.(js|ts):\d+/);
    } finally {
      check.mockRestore();
      error.mockRestore();
      info.mockRestore();
    }
  });
});
