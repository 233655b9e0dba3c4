import type { INestApplication } from '@nestjs/common';

type Handler = (req: unknown, res: unknown, next: () => void) => unknown;
interface NotFoundHost {
  setNotFoundHandler(handler: Handler, prefix?: string, excludedRoutes?: unknown): unknown;
  use(handler: Handler): unknown;
}

/**
 * With a global prefix Nest answers unknown paths only under it (a NOT_FOUND problem); any other
 * unknown path fell through to Express's HTML page. This mounts the same handler once more at the
 * root, behind every route, /graphql and /api/docs: every unknown path gets the problem document.
 * Nest mounts it in init(), after every middleware and route whoever added them, so the order
 * needs no care from anyone adding routes later.
 */
export function notFoundEverywhere(app: INestApplication): void {
  const adapter = app.getHttpAdapter() as unknown as NotFoundHost;
  const mount = adapter.setNotFoundHandler.bind(adapter);
  adapter.setNotFoundHandler = (handler, prefix, excludedRoutes) => {
    const result = mount(handler, prefix, excludedRoutes);
    adapter.use(handler);
    return result;
  };
}
