// Issue 15: the web client's types (apps/web/src/gql/graphql.ts) are generated from the committed
// schema; regenerating them must give the committed file (else: npm run web:codegen).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateWebTypes, OUTPUT_FILE } from '../../apps/web/codegen.mjs';

describe('apps/web/src/gql/graphql.ts', () => {
  it('is what npm run web:codegen makes from apps/api/schema.graphql', async () => {
    const expected: string = await generateWebTypes();
    expect(readFileSync(OUTPUT_FILE, 'utf8') === expected, 'apps/web/src/gql/graphql.ts is out of date: run npm run web:codegen').toBe(true);
  });
});
