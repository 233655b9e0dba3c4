import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY } from '../games/games.test-kit.js';
import { HotSql } from '../prisma/hot-sql.js';
import { waitFor } from '../../../../test/wait.js';

const TOKEN = 'metrics-test-token-0123456789';
let t: TestApp;
let closed: TestApp;
beforeAll(async () => {
  t = await startTestApp({ metricsToken: TOKEN });
  closed = await startTestApp({ metricsToken: null }, t.databaseUrl);
});
afterAll(async () => {
  await closed?.close();
  await t?.close();
});

async function scrape(app: TestApp, token?: string) {
  const response = await fetch(`${app.baseUrl}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The value of one sample line, e.g. `mizerka_moves_total{actor="player",outcome="accepted"}`. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('/metrics', () => {
  it('answers only the METRICS_TOKEN, and does not exist without one', async () => {
    expect((await scrape(t)).status).toBe(401);
    expect((await scrape(t, 'wrong-token-wrong-token-wrong')).status).toBe(401);
    const open = await scrape(closed, TOKEN);
    expect(open.status).toBe(404);
    expect(open.type).toContain('application/problem+json');
    const ok = await scrape(t, TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.type).toContain('text/plain');
    expect(ok.text).toContain('nodejs_eventloop_lag_seconds');
    expect(ok.text).toMatch(/mizerka_db_pool_connections\{state="idle"\} \d+/);
  });

  it("counts the statements in flight on the move path's own pool", async () => {
    const series = 'mizerka_db_hot_statements_in_flight';
    expect(sample((await scrape(t, TOKEN)).text, series)).toBe(0);
    const slow = t.app.get(HotSql).rows(sqlQuery(z.object({}), Prisma.sql`SELECT pg_sleep(0.5)`));
    await waitFor(async () => sample((await scrape(t, TOKEN)).text, series) === 1, 'the slow statement in flight');
    await slow;
    expect(sample((await scrape(t, TOKEN)).text, series)).toBe(0);
  });

  it('counts moves by outcome, their latency and errors by code', async () => {
    const before = (await scrape(t, TOKEN)).text;
    const seated = await players(t, 3, 'met');
    const gameId = await startGame(t, seated, 'short');
    const toMove = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
    const mine = (await t.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
    const wrongSeat = seated[(toMove + 1) % 3];
    const move = pickMove(mine.view.legalMoves, rng(1));
    expect((await t.gql(MAKE_MOVE, { input: { gameId, ...move } }, wrongSeat.token)).errors?.[0].extensions?.code).toBe('NOT_YOUR_TURN');
    expect((await t.gql(MAKE_MOVE, { input: { gameId, ...move } }, seated[toMove].token)).errors).toBeUndefined();
    const missing = await t.rest('GET', '/api/v1/games/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);

    const after = (await scrape(t, TOKEN)).text;
    const delta = (series: string) => sample(after, series) - sample(before, series);
    expect(delta('mizerka_moves_total{actor="player",outcome="accepted"}')).toBe(1);
    expect(delta('mizerka_moves_total{actor="player",outcome="NOT_YOUR_TURN"}')).toBe(1);
    expect(delta('mizerka_move_seconds_count')).toBe(1);
    expect(delta('mizerka_errors_total{code="NOT_YOUR_TURN",surface="graphql"}')).toBe(1);
    expect(delta('mizerka_errors_total{code="NOT_FOUND",surface="rest"}')).toBe(1);
  });
});
