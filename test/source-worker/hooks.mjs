/**
 * Node module hooks for a worker thread run from the TypeScript sources, as Vitest runs them: a
 * relative `.js` import finds its `.ts` file, workspace packages resolve to their sources (the
 * "source" export condition, as in vitest.config.ts), and TypeScript is turned into JavaScript
 * by Oxc through rolldown (Vite's own transformer, so nothing is added; it loads in a fraction of
 * TypeScript's time): type erasure only, no type check, no decorators.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, URL } from 'node:url';
import { transformSync } from 'rolldown/experimental';

export async function resolve(specifier, context, next) {
  const conditions = context.conditions.includes('source') ? context.conditions : ['source', ...context.conditions];
  if (specifier.endsWith('.js') && (specifier.startsWith('./') || specifier.startsWith('../')) && context.parentURL?.endsWith('.ts')) {
    const asTs = new URL(specifier.slice(0, -3) + '.ts', context.parentURL);
    if (existsSync(fileURLToPath(asTs))) return { url: asTs.href, shortCircuit: true, format: 'module' };
  }
  return next(specifier, { ...context, conditions });
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const path = fileURLToPath(url);
  const { code, errors } = transformSync(path, await readFile(path, 'utf8'));
  if (errors.length > 0) throw new Error(`${path}: ${errors.map((e) => e.message).join('; ')}`);
  return { format: 'module', source: code, shortCircuit: true };
}
