import { GraphQLSchemaHost } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.js';

// The committed SDL and OpenAPI document are what third-party clients generate code from.
// After changing the API, refresh them with `npm run schema:write`.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('apps/api/schema.graphql is the schema the server serves', async () => {
  const { schema } = t.app.get(GraphQLSchemaHost);
  await expect(`${printSchema(lexicographicSortSchema(schema))}\n`).toMatchFileSnapshot('../schema.graphql');
});

it('apps/api/openapi.json is the document the server serves', async () => {
  const doc = await t.rest('GET', '/api/docs/json');
  await expect(`${JSON.stringify(doc.body, null, 2)}\n`).toMatchFileSnapshot('../openapi.json');
});
