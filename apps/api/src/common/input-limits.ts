// Limits on what a client may send, checked before anything else reads it: bad input is the
// client's fault, so every breach is BAD_INPUT (naming the field or the limit), never INTERNAL.
// docs/api.md's "Limits on input" lists them.
import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import express, { type RequestHandler } from 'express';
import { badInput } from './errors.js';

/** The largest request body, in bytes (JSON or a form). */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * The largest game record uploaded to POST /api/v1/games/import: a long bidding game's record
 * runs past MAX_BODY_BYTES (random play to 300: up to ~75 KB seen), but replaying one is linear.
 */
export const MAX_RECORD_BYTES = 512 * 1024;
export const RECORD_IMPORT_PATH = '/api/v1/games/import';
/** The deepest nesting of objects and arrays in a body, a query string or an argument. */
export const MAX_JSON_DEPTH = 32;
/** GraphQL's Int and PostgreSQL's integer: every number a client sends must fit. */
export const INT_MIN = -(2 ** 31);
export const INT_MAX = 2 ** 31 - 1;

/** Keys that class-transformer drops without a word; an input carrying them is refused instead. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Text that is not well-formed Unicode (a lone UTF-16 surrogate, which JSON's `\ud800` and
 * GraphQL's `"\uD800"` can spell): PostgreSQL refuses it inside JSON and text alike, which
 * would be a 500 deep inside a write. (`String.prototype.isWellFormed` is Node 20's, not yet in
 * the ES2023 lib the project compiles against.)
 */
export function isIllFormed(text: string): boolean {
  return !(text as string & { isWellFormed(): boolean }).isWellFormed();
}

const illFormed = (field: string) =>
  badInput(`${field} must be well-formed Unicode text (it holds a lone UTF-16 surrogate)`, { field });

/** Where a value sits in the input, for messages: `input.options.target`, `cards[2]`. */
function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** How deep a parsed JSON value nests, counting to `max + 1` at most (iteratively: no recursion to overflow). */
export function jsonDepthOver(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

const tooDeep = (where: string) =>
  badInput(`${where} nests objects and lists more than ${MAX_JSON_DEPTH} deep`, { limit: 'depth', max: MAX_JSON_DEPTH });

/**
 * The body parsers (Nest's own are turned off): JSON and forms up to MAX_BODY_BYTES, then the
 * nesting depth, both before any validation walks the body. Errors go to Nest's exception layer,
 * which answers them as problem documents.
 */
export function bodyParsers(): RequestHandler[] {
  const limited = (parse: RequestHandler, max = MAX_BODY_BYTES): RequestHandler => (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.too.large') {
        return next(badInput(`The request body is larger than ${max} bytes`, { limit: 'bodySize', max }));
      }
      next(error);
    });
  // The record upload first: once it has read the body, the parsers below leave it alone.
  const records = limited(express.json({ limit: MAX_RECORD_BYTES }), MAX_RECORD_BYTES);
  const recordUpload: RequestHandler = (req, res, next) =>
    req.method === 'POST' && req.path === RECORD_IMPORT_PATH ? records(req, res, next) : next();
  const depth: RequestHandler = (req, _res, next) => {
    next(jsonDepthOver(req.body, MAX_JSON_DEPTH) ? tooDeep('The request body') : undefined);
  };
  return [
    recordUpload,
    limited(express.json({ limit: MAX_BODY_BYTES })),
    limited(express.urlencoded({ limit: MAX_BODY_BYTES, extended: false })),
    depth,
  ];
}

const ROUTE_INPUT = new Set(['body', 'query', 'param']); // GraphQL arguments arrive as 'body' too

/**
 * A global pipe around the ValidationPipe, for REST bodies, query strings and path parameters
 * and for GraphQL arguments alike. `raw` (before validation): depth, NUL characters, text that is not
 * well-formed Unicode (lone surrogates), keys such as `__proto__`, and numbers outside a 32-bit integer; `typed` (after validation has converted
 * query strings to numbers): the numbers again. Each refusal names the field.
 */
@Injectable()
export class InputGuardPipe implements PipeTransform {
  constructor(private readonly stage: 'raw' | 'typed') {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (!ROUTE_INPUT.has(metadata.type)) return value;
    const root = metadata.data ?? '';
    const stack: [unknown, string, number][] = [[value, root, 0]];
    while (stack.length > 0) {
      const [item, path, depth] = stack.pop()!;
      const field = path === '' ? metadata.type : path;
      if (typeof item === 'number') {
        if (!Number.isFinite(item) || item < INT_MIN || item > INT_MAX) {
          throw badInput(`${field} must lie between ${INT_MIN} and ${INT_MAX}`, { field });
        }
      } else if (this.stage === 'typed') {
        if (item !== null && typeof item === 'object' && depth < MAX_JSON_DEPTH) {
          for (const [key, child] of Object.entries(item)) stack.push([child, pathOf(path, key), depth + 1]);
        }
      } else if (typeof item === 'string') {
        if (item.includes('\u0000')) throw badInput(`${field} must not contain the NUL character (\\u0000)`, { field });
        if (isIllFormed(item)) throw illFormed(field);
      } else if (item !== null && typeof item === 'object') {
        if (depth >= MAX_JSON_DEPTH) throw tooDeep(field);
        const array = Array.isArray(item);
        for (const key of Object.keys(item)) {
          const at = pathOf(path, array ? Number(key) : key);
          if (key.includes('\u0000')) throw badInput(`A field name in ${field} contains the NUL character (\\u0000)`, { field });
          if (FORBIDDEN_KEYS.has(key)) throw badInput(`${at} is not a known field`, { field: at });
          if (isIllFormed(key)) throw badInput(`A field name in ${field} is not well-formed Unicode text`, { field });
          stack.push([(item as Record<string, unknown>)[key], at, depth + 1]);
        }
      }
    }
    return value;
  }
}
