import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** Where `vite build` writes the web client (apps/web): dist/web of the directory the server runs in. */
export const WEB_CLIENT_DIR = resolve('dist', 'web');

/**
 * Paths links from outside point at (mail: /verify-email?token=…, /reset-password?token=…; an app
 * asking for consent: /oauth/consent?request=…), served the page too; the client moves them to its
 * hash route (apps/web/src/router.ts, PATH_ROUTES).
 */
export const WEB_CLIENT_PATHS = new Set(['/', '/sign-in', '/sign-up', '/account', '/verify-email', '/reset-password', '/oauth/consent']);

/** Where the web client's service worker is served (its scope: /). */
export const SERVICE_WORKER_PATH = '/sw.js';

interface Req {
  method: string;
  path: string;
  secure: boolean;
}
interface Res {
  getHeader(name: string): unknown;
  setHeader(name: string, value: string): void;
  sendFile(path: string): void;
}

/**
 * The web client at / (its index.html), at WEB_CLIENT_PATHS, /assets/* (hashed files, cached
 * for good) and its service worker at /sw.js. Nothing else: the client routes by the URL's hash, so every other unknown path stays
 * a 404 problem document. Without a build (dist/web/index.html missing) the server serves the API alone.
 */
export function serveWebClient(app: NestExpressApplication, dir = WEB_CLIENT_DIR): boolean {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return false;
  app.useStaticAssets(join(dir, 'assets'), { prefix: '/assets/', index: false, redirect: false, fallthrough: true, immutable: true, maxAge: '365d' });
  // The service worker (apps/web/public/sw.js: Web Push notices) at the root, so that its scope is
  // the whole site; always revalidated, as browsers check it for updates.
  const worker = join(dir, 'sw.js');
  app.use((req: Req, res: Res, next: () => void) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && req.path === SERVICE_WORKER_PATH && existsSync(worker)) {
      res.setHeader('content-type', 'text/javascript; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      res.sendFile(worker);
      return;
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && WEB_CLIENT_PATHS.has(req.path)) {
      // Always revalidated: a new build names new asset files.
      res.setHeader('cache-control', 'no-cache');
      // Never inside another site's frame (clickjacking the consent page's Approve): helmet's
      // SAMEORIGIN and frame-ancestors 'self' narrowed to none, as nothing of ours frames it either.
      res.setHeader('x-frame-options', 'DENY');
      // Served over plain http (a phone opening http://<LAN address>:3000), helmet's
      // upgrade-insecure-requests would send the page's own scripts and API calls to https, where
      // nothing answers. Dropped for this page only, and only then; the rest of the policy stays.
      const policy = res.getHeader('content-security-policy');
      if (typeof policy === 'string') {
        const directives = policy
          .split(';')
          .filter((d) => req.secure || d.trim() !== 'upgrade-insecure-requests')
          .map((d) => (d.trim().startsWith('frame-ancestors') ? "frame-ancestors 'none'" : d));
        res.setHeader('content-security-policy', directives.join(';'));
      }
      res.sendFile(index);
    } else {
      next();
    }
  });
  return true;
}
