// Issue 23, "the exchange screen": the page lets a player select no more cards than the talon can
// replace (`maxDiscards`), disables the others once the limit is reached and says why; with an
// empty talon no card is selectable at all.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app.js';
import { players, startGame, type TestPlayer } from '../../apps/api/src/games/games.test-kit.js';
import { chromiumAvailable, DESKTOP, browserSuite } from './browser.js';
import { tableAt } from './table-driver.js';

const available = chromiumAvailable('the exchange screen in Chromium');

const TURN = `query($id: ID!) { game(id: $id) { version view { toMove phase hand legalMoves { kind contracts cards maxDiscards } } } }`;
const MOVE = 'mutation($input: MakeMoveInput!) { makeMove(input: $input) { version } }';

describe.skipIf(!available)('the exchange screen in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  browserSuite((app, chromium) => ([t, browser] = [app, chromium]));

  /**
   * A classic game whose first deal reaches the exchange of `me` after the other seats have put
   * away `othersTake` cards between them (the talon holds 13): the seat to move is read from the
   * server, and the others' moves are made through the API.
   */
  async function exchangeFor(othersTake: number) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const seated = await players(t, 3, 'xch');
      const gameId = await startGame(t, seated, 'classic');
      const bySeat = (seat: number) => seated[seat];
      const turn = async (p: TestPlayer) => (await t.gql<any>(TURN, { id: gameId }, p.token)).data!.game;
      const first = await turn(seated[0]);
      const chooser: number = first.view.toMove;
      // `me` exchanges last: the seat before the chooser, clockwise.
      const me = (chooser + 2) % 3;
      let left = othersTake;
      for (;;) {
        const seen = await turn(seated[0]);
        const seat: number = seen.view.toMove;
        const mover = bySeat(seat);
        const mine = await turn(mover);
        const legal = mine.view.legalMoves;
        if (seat === me && legal.kind === 'exchange') return { gameId, me: mover, version: mine.version as number, legal };
        let move: Record<string, unknown>;
        if (legal.kind === 'contract') move = { kind: 'contract', contract: legal.contracts[0] };
        else if (legal.kind === 'exchange') {
          const take = Math.min(left, legal.maxDiscards);
          left -= take;
          move = { kind: 'exchange', discards: legal.cards.slice(0, take) };
        } else break; // a contract without an exchange: try another game
        const made = await t.gql(MOVE, { input: { gameId, ...move } }, mover.token);
        expect(made.errors).toBeUndefined();
      }
    }
    throw new Error('no exchange reached');
  }

  async function open(player: TestPlayer, gameId: string, version: number) {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/`);
    await page.evaluate(`localStorage.setItem('mizerka.token', ${JSON.stringify(player.token)})`);
    // A change of hash alone keeps the page (and its signed-out session): load it afresh.
    await page.goto(`${t.baseUrl}/#/games/${gameId}`);
    await page.reload();
    await tableAt(page, version);
    return { page, context };
  }

  it('with an empty talon, selects no card and says why', async () => {
    const { gameId, me, version, legal } = await exchangeFor(13);
    expect(legal.maxDiscards).toBe(0);
    const { page, context } = await open(me, gameId, version);
    await page.getByTestId('selection-limit').getByText(/talon is empty/).waitFor();
    const cards = page.locator('.hand button.card');
    expect(await cards.count()).toBe(13);
    expect(await page.locator('.hand button.card.legal').count()).toBe(0);
    await cards.first().click({ force: true });
    expect(await page.locator('.hand button.card[aria-pressed="true"]').count()).toBe(0);
    await expect(page.locator('.dock button.confirm').textContent()).resolves.toMatch(/Keep my hand/);
    await context.close();
  }, 120_000);

  it('with room for 6, stops at 6 selected, disables the others and says why; one unselected frees them', async () => {
    const { gameId, me, version, legal } = await exchangeFor(7);
    expect(legal.maxDiscards).toBe(6);
    const { page, context } = await open(me, gameId, version);
    const cards = page.locator('.hand button.card');
    for (let i = 0; i < 7; i++) await cards.nth(i).click({ force: true });
    expect(await page.locator('.hand button.card[aria-pressed="true"]').count()).toBe(6);
    expect(await page.locator('.hand button.card[aria-disabled="true"]').count()).toBe(7);
    await page.getByTestId('selection-limit').getByText(/selected 6 cards, as many as the talon can replace/).waitFor();
    await expect(page.locator('.dock button.confirm').getAttribute('aria-disabled')).resolves.toBe('false');
    await cards.nth(0).click({ force: true });
    expect(await page.locator('.hand button.card[aria-disabled="true"]').count()).toBe(0);
    expect(await page.getByTestId('selection-limit').count()).toBe(0);
    await context.close();
  }, 120_000);
});
