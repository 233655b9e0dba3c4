// The web client's build: `vite build --config apps/web/vite.config.ts` writes dist/web, which
// the API serves at / (index.html) and /assets/* (apps/api/src/web-client.ts).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  // @mizerka/rules from its TypeScript source (its "source" export): the replay viewer runs the rules.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: here('../../dist/web'),
    emptyOutDir: true,
    // Under the API's content security policy ('self'): no inline script, and no data: URLs for assets.
    assetsInlineLimit: 0,
    sourcemap: true,
    target: 'es2022',
  },
});
