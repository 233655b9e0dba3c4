// Issue 15, "Tests": the web client's table survives a reload and a server restart mid-game
// (the real server process, killed and started again on the same port), follows the opponents'
// moves by itself, and recovers from a stale move (CONFLICT / NOT_YOUR_TURN: shown, then refreshed).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../database.js';
import { chooseMove, data, http, MAKE_MOVE, registerMany, rng, seatTable, toMove, turnOf, type Http, type Player } from '../e2e/clients.js';
import { kill, startServer, type Server } from '../e2e/server-process.js';
import { chromiumAvailable, DESKTOP, ensureWebBuild, launchChromium } from './browser.js';
import { clickMove, seededChance, serverTurn, tableAt } from './table-driver.js';

const available = chromiumAvailable('the web client recovery tests in Chromium');

describe.skipIf(!available)('the web client through reloads and restarts', () => {
  let browser: Browser;
  let databaseUrl: string;
  beforeAll(async () => {
    ensureWebBuild();
    [browser, databaseUrl] = await Promise.all([launchChromium(), createTestDatabase()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps its place across a reload and a server restart, and recovers from a stale move', async () => {
    let server: Server = await startServer({ DATABASE_URL: databaseUrl });
    const port = new URL(server.url).port;
    let h: Http = http(server.url, { timeoutMs: 20_000 });
    const players: Player[] = await registerMany(h, 3, 'wr');
    const { gameId } = await seatTable(h, players, 'short');
    const tokens = players.map((p) => p.token);
    const random = rng(7);
    const chance = seededChance(7);

    // The page of seat 0; its socket's messages from the server can be held back (below).
    const context = await browser.newContext({ viewport: DESKTOP });
    let holdFrames = false;
    await context.routeWebSocket(/\/graphql$/, (ws) => {
      const upstream = ws.connectToServer();
      upstream.onMessage((message) => {
        if (!holdFrames) ws.send(message);
      });
      ws.onMessage((message) => upstream.send(message));
    });
    // Signed in as seat 0's player (the token kept in the browser, as after signing in with it).
    await context.addInitScript(`localStorage.setItem('mizerka.token', ${JSON.stringify(players[0].token)}); localStorage.setItem('mizerka.name', ${JSON.stringify(players[0].name)})`);
    const page: Page = await context.newPage();
    await page.goto(`${server.url}/#/games/${gameId}`);
    await page.waitForSelector('.table');

    /** `count` moves: seat 0 by clicking in the page, the others over the API (the page must follow them live). */
    const advance = async (count: number, pageMoves = { n: 0 }) => {
      for (let i = 0; i < count; i++) {
        const seat = await toMove(h, gameId);
        if (seat === null) return pageMoves;
        if (seat === 0) {
          const turn = await serverTurn(h.gql as never, gameId, tokens);
          await tableAt(page, turn.version);
          await clickMove(page, turn, chance);
          pageMoves.n++;
        } else {
          const turn = await turnOf(h, gameId, players[seat]);
          data(await h.gql(MAKE_MOVE, { input: { gameId, expectedVersion: turn.version, ...chooseMove(turn.legal, random) } }, players[seat].token), 'makeMove');
        }
      }
      return pageMoves;
    };
    const serverVersion = async () => (await serverTurn(h.gql as never, gameId, tokens)).version;

    expect((await advance(12)).n).toBeGreaterThan(0);
    await tableAt(page, await serverVersion());

    // A reload lands on the same table, at the same version.
    await page.reload();
    await tableAt(page, await serverVersion());
    expect((await advance(8)).n).toBeGreaterThan(0);

    // The server goes away: the page says so, and comes back with it.
    await kill(server, 'SIGKILL');
    await page.getByText('Connection lost: reconnecting…').waitFor({ timeout: 15_000 });
    server = await startServer({ DATABASE_URL: databaseUrl, PORT: port });
    h = http(server.url, { timeoutMs: 20_000 });
    await page.getByText('Connection lost: reconnecting…').waitFor({ state: 'detached', timeout: 30_000 });
    await tableAt(page, await serverVersion(), 30_000);
    // Moves after the restart, the opponents' shown live again.
    expect((await advance(10)).n).toBeGreaterThan(0);
    await tableAt(page, await serverVersion());

    // A stale page: seat 0 moves from elsewhere while the page hears nothing, then the page tries
    // its own move: the API refuses it, the page says why and shows the game as it now is.
    while ((await toMove(h, gameId)) !== 0) await advance(1);
    const before = await serverTurn(h.gql as never, gameId, tokens);
    await tableAt(page, before.version);
    holdFrames = true;
    const elsewhere = await turnOf(h, gameId, players[0]);
    data(await h.gql(MAKE_MOVE, { input: { gameId, expectedVersion: elsewhere.version, ...chooseMove(elsewhere.legal, random) } }, players[0].token), 'makeMove');
    await clickMove(page, before, chance);
    await page.getByRole('alert').filter({ hasText: /game moved on|not your turn/ }).waitFor();
    await tableAt(page, await serverVersion());
    holdFrames = false;

    await context.close();
    await kill(server, 'SIGTERM');
  }, 240_000);
});
