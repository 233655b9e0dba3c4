import { readFileSync } from 'node:fs';
import type { Type } from '@nestjs/common';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { FEATURE_MODULES } from '../app.module.js';
import { IS_PUBLIC, OWN_BEARER } from './public.decorator.js';
import { grants, REQUIRED_SCOPE, TOKEN_SCOPES, type TokenScope } from './scopes.js';

// Every operation names who may call it: @Public (or @OwnBearer), or the scope it needs
// (@RequireScope, on the handler or its class). An unmarked one would silently need `read`; an app
// granted `read` could then call what was meant for more. Walked: every Query, Mutation and
// Subscription field of the committed schema and every operation of the committed OpenAPI document.

const SCHEMA = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
const OPENAPI = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
};

type Handler = (...args: unknown[]) => unknown;
interface Found {
  owner: Type;
  handler: Handler;
}

/** The controllers and providers of the feature modules and everything they import. */
function classes(): { controllers: Type[]; providers: Type[] } {
  const controllers = new Set<Type>();
  const providers = new Set<Type>();
  const seen = new Set<unknown>();
  const walk = (entry: unknown) => {
    const module = (entry as { module?: Type }).module ?? (entry as Type);
    if (!module || seen.has(module)) return;
    seen.add(module);
    const dynamic = entry as { controllers?: Type[]; providers?: unknown[]; imports?: unknown[] };
    for (const c of [...(Reflect.getMetadata('controllers', module) ?? []), ...(dynamic.controllers ?? [])]) controllers.add(c as Type);
    for (const p of [...(Reflect.getMetadata('providers', module) ?? []), ...(dynamic.providers ?? [])]) {
      if (typeof p === 'function') providers.add(p as Type);
    }
    for (const i of [...(Reflect.getMetadata('imports', module) ?? []), ...(dynamic.imports ?? [])]) if (i) walk(i);
  };
  for (const module of FEATURE_MODULES) walk(module);
  return { controllers: [...controllers], providers: [...providers] };
}

function methodsOf(owner: Type): [string, Handler][] {
  const proto = owner.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .filter((name) => name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function')
    .map((name) => [name, proto[name] as Handler]);
}

/** What marks a handler carries: 'public', a scope, or null (unmarked). */
function markOf({ owner, handler }: Found): 'public' | TokenScope | null {
  const meta = (key: string) => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, owner);
  if (meta(IS_PUBLIC) === true || meta(OWN_BEARER) === true) return 'public';
  return (meta(REQUIRED_SCOPE) as TokenScope | undefined) ?? null;
}

const { controllers, providers } = classes();

/** GraphQL root fields → their resolver methods. */
function rootFields(): Map<string, Found> {
  const found = new Map<string, Found>();
  for (const owner of providers) {
    for (const [name, handler] of methodsOf(owner)) {
      const type = Reflect.getMetadata('graphql:resolver_type', handler) as string | undefined;
      if (type !== 'Query' && type !== 'Mutation' && type !== 'Subscription') continue;
      const field = (Reflect.getMetadata('graphql:resolver_name', handler) as string | undefined) ?? name;
      found.set(`${type}.${field}`, { owner, handler });
    }
  }
  return found;
}

describe('every operation names its scope', () => {
  it('every Query, Mutation and Subscription field: @Public or @RequireScope', () => {
    const schema = buildSchema(SCHEMA);
    const fields = rootFields();
    const unmarked: string[] = [];
    let walked = 0;
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()] as (GraphQLObjectType | null)[]) {
      for (const field of Object.keys(root?.getFields() ?? {})) {
        const key = `${root!.name}.${field}`;
        const found = fields.get(key);
        expect(found, `${key}: no resolver method found for it`).toBeDefined();
        walked++;
        if (markOf(found!) === null) unmarked.push(key);
      }
    }
    expect(walked).toBeGreaterThan(40);
    expect(unmarked, 'operations that name no scope (add @RequireScope or @Public)').toEqual([]);
  });

  it('every REST operation: @Public or @RequireScope', () => {
    const byId = new Map<string, Found>();
    for (const owner of controllers) for (const [name, handler] of methodsOf(owner)) byId.set(`${owner.name}_${name}`, { owner, handler });
    const unmarked: string[] = [];
    let bearer = 0;
    for (const [path, operations] of Object.entries(OPENAPI.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const found = byId.get(operation.operationId);
        expect(found, `${method.toUpperCase()} ${path}: no handler ${operation.operationId}`).toBeDefined();
        const mark = markOf(found!);
        if (mark === null) unmarked.push(`${method.toUpperCase()} ${path}`);
        if (operation.security?.length) bearer++;
      }
    }
    expect(bearer).toBeGreaterThan(20);
    expect(unmarked, 'operations that name no scope (add @RequireScope or @Public)').toEqual([]);
  });

  it('keeps what today’s tokens meant: read < play < admin, and webhooks within play', () => {
    const can = (scopes: TokenScope[]) => TOKEN_SCOPES.filter((s) => grants(scopes, s));
    expect(can(['read'])).toEqual(['read']);
    expect(can(['play'])).toEqual(['read', 'play', 'webhooks']);
    expect(can(['admin'])).toEqual(['read', 'play', 'admin', 'webhooks']);
    expect(can(['webhooks'])).toEqual(['read', 'webhooks']);
  });
});
