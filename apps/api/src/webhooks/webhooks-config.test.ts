import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/app-config.js';

describe('webhook settings', () => {
  it('default to the Standard Webhooks schedule, https only, 5 s, 5 days, 10 endpoints', () => {
    expect(loadConfig({}).webhooks).toEqual({
      endpointsPerPlayer: 10,
      retrySchedule: [5, 300, 1800, 7200, 18_000, 36_000, 36_000],
      timeoutMs: 5000,
      disableAfterMs: 5 * 24 * 3_600_000,
      sweepMs: 10_000,
      allowHttpLoopback: false,
    });
  });

  it('read the environment', () => {
    const webhooks = loadConfig({
      WEBHOOK_RETRY_SCHEDULE: '1, 1,2',
      WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true',
      WEBHOOK_TIMEOUT_SECONDS: '2',
      WEBHOOK_DISABLE_AFTER_HOURS: '1',
      WEBHOOK_MAX_ENDPOINTS_PER_PLAYER: '3',
      WEBHOOK_SWEEP_SECONDS: '30',
    }).webhooks;
    expect(webhooks).toEqual({ retrySchedule: [1, 1, 2], allowHttpLoopback: true, timeoutMs: 2000, disableAfterMs: 3_600_000, endpointsPerPlayer: 3, sweepMs: 30_000 });
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: 'none' }).webhooks.retrySchedule).toEqual([]);
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP_LOOPBACK: 'off' }).webhooks.allowHttpLoopback).toBe(false);
  });

  it.each([
    ['WEBHOOK_RETRY_SCHEDULE', '5,-1'],
    ['WEBHOOK_RETRY_SCHEDULE', '5,,5'],
    ['WEBHOOK_RETRY_SCHEDULE', '0'],
    ['WEBHOOK_ALLOW_HTTP_LOOPBACK', 'yes'],
    ['WEBHOOK_TIMEOUT_SECONDS', '0'],
    ['WEBHOOK_MAX_ENDPOINTS_PER_PLAYER', '0'],
  ])('refuse %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
