// Issue 15: the API serves the web client at / (index.html) and /assets/*, under its content
// security policy; every other unknown path stays a 404 problem document.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app.js';
import { ensureWebBuild, ROOT } from './browser.js';

describe('the web client, served by the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    ensureWebBuild();
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('GET / is the app, its assets load, and the policy stays self', async () => {
    const page = await fetch(`${t.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // Over plain http the page must not send its own requests to https (a phone on the LAN).
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect((await fetch(`${t.baseUrl}/health`)).headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const assets = readdirSync(join(ROOT, 'dist', 'web', 'assets')).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      expect(html.includes(`/assets/${asset}`) || !asset.startsWith('index-')).toBe(true);
      const response = await fetch(`${t.baseUrl}/assets/${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('cache-control')).toContain('immutable');
      await response.arrayBuffer();
    }
    const head = await fetch(`${t.baseUrl}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('the paths mail links point at are the app too', async () => {
    for (const path of ['/verify-email?token=abc', '/reset-password?token=abc', '/sign-up']) {
      const page = await fetch(`${t.baseUrl}${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toContain('<div id="root">');
    }
  });

  it('anything else is a 404 problem document, and the API keeps its paths', async () => {
    for (const path of ['/assets/missing-file.js', '/index.html', '/games/abc', '/assets/', '/favicon.ico', '/verify-email/abc']) {
      const response = await fetch(`${t.baseUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
      expect(((await response.json()) as { code: string }).code, path).toBe('NOT_FOUND');
    }
    expect((await fetch(`${t.baseUrl}/health`)).status).toBe(200);
    expect((await t.gql('{ __typename }')).data).toEqual({ __typename: 'Query' });
    const post = await fetch(`${t.baseUrl}/`, { method: 'POST' });
    expect(post.status).toBe(404);
  });
});
