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
 * The web client at / (its index.html), at WEB_CLIENT_PATHS, and /assets/* (hashed files, cached
 * for good). Nothing else: the client routes by the URL's hash, so every other unknown path stays
 * a 404 problem document. Without a build (dist/web/index.html missing) the server serves the API alone.
 */
export function serveWebClient(app: NestExpressApplication, dir = WEB_CLIENT_DIR): boolean {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return false;
  app.useStaticAssets(join(dir, 'assets'), { prefix: '/assets/', index: false, redirect: false, fallthrough: true, immutable: true, maxAge: '365d' });
  app.use((req: Req, res: Res, next: () => void) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && WEB_CLIENT_PATHS.has(req.path)) {
      // Always revalidated: a new build names new asset files.
      res.setHeader('cache-control', 'no-cache');
      // Served over plain http (a phone opening http://<LAN address>:3000), helmet's
      // upgrade-insecure-requests would send the page's own scripts and API calls to https, where
      // nothing answers. Dropped for this page only, and only then; the rest of the policy stays.
      const policy = res.getHeader('content-security-policy');
      if (!req.secure && typeof policy === 'string') {
        res.setHeader('content-security-policy', policy.split(';').filter((d) => d.trim() !== 'upgrade-insecure-requests').join(';'));
      }
      res.sendFile(index);
    } else {
      next();
    }
  });
  return true;
}
