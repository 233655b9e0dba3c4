import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { parseRows, queryRows, sqlQuery } from './sql-query.js';

const lockedGame = (id: string) => sqlQuery(z.object({ id: z.string(), games: z.number() }), Prisma.sql`SELECT id, games FROM t WHERE id = ${id}::uuid`);

describe('sqlQuery', () => {
  it('answers the rows of its shape, without columns it does not declare', () => {
    expect(parseRows(lockedGame('a'), [{ id: 'a', games: 2, extra: true }])).toEqual([{ id: 'a', games: 2 }]);
  });

  it('fails at the boundary, naming the statement, when a row has another shape', () => {
    // A count(*) left uncast comes back from PostgreSQL as bigint, not number.
    expect(() => parseRows(lockedGame('a'), [{ id: 'a', games: 2n }])).toThrow(/games[\s\S]*SELECT id, games FROM t/);
  });

  it('runs its statement through the client it is given', async () => {
    const sent: Prisma.Sql[] = [];
    const db = { $queryRaw: (sql: Prisma.Sql) => (sent.push(sql), Promise.resolve([{ id: 'b', games: 0 }])) };
    const rows = await queryRows(db as never, lockedGame('b'));
    expect(rows).toEqual([{ id: 'b', games: 0 }]);
    expect(sent[0].values).toEqual(['b']);
  });
});

describe('sqlQuery around a shared fragment', () => {
  it('leaves the fragment as it was, so another statement built on it declares its own rows', () => {
    const shared = Prisma.sql`SELECT 1 AS one`;
    const a = sqlQuery(z.object({ one: z.number() }), shared);
    const b = sqlQuery(z.object({ one: z.string() }), shared);
    expect('row' in shared).toBe(false);
    expect(parseRows(a, [{ one: 1 }])).toEqual([{ one: 1 }]);
    expect(parseRows(b, [{ one: '1' }])).toEqual([{ one: '1' }]);
    expect(a.text).toBe(shared.text);
  });
});
