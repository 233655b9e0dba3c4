// Issue 15, "Tests": three browsers (Chromium) sign up, one creates a lobby, two join by its
// invite link, and they play a whole `short` game: its first deals by clicking cards, the rest
// through the API while every page follows; the final standings each browser shows equal the
// server's score sheet, and no page ever held another seat's cards (its DOM and every response
// and frame it received). One browser plays a `classic` deal, and a
// `bidding` one, against two bots. Every screen is screenshotted at desktop and phone size and
// checked with axe.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app.js';
import { http, playGame } from '../e2e/clients.js';
import { chromiumAvailable, DESKTOP, expectAccessible, PHONE, screenshots, browserSuite } from './browser.js';
import {
  clickMove,
  expectNoForeignCards,
  knowledgeByVersion,
  recordTraffic,
  seededChance,
  serverTurn,
  snapshot,
  tableAt,
  type BrowserPlayer,
} from './table-driver.js';

const available = chromiumAvailable('the web client tests in Chromium');
const RUN = Math.random().toString(36).slice(2, 7);

describe.skipIf(!available)('the web client in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  browserSuite((app, chromium) => ([t, browser] = [app, chromium]));

  async function signUp(label: string, check?: (page: Page) => Promise<void>): Promise<BrowserPlayer> {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const player: BrowserPlayer = { name: `${label}${RUN}`, context, page, token: '', traffic: [], snapshots: [] };
    await page.goto(`${t.baseUrl}/`);
    await page.getByRole('heading', { name: 'Play Mizerka' }).waitFor();
    await check?.(page);
    await page.locator('#signup-name').fill(player.name);
    await page.getByLabel('Choose a password').fill(`${player.name} plays mizerka`);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText(`Signed in as ${player.name}`).waitFor();
    player.token = (await page.evaluate("localStorage.getItem('mizerka.token')")) as string;
    expect(player.token).toBeTruthy();
    return player;
  }

  it('three players play a whole short game, its first deals by clicking, and see the server’s standings', async () => {
    let recording = true;
    const alice = await signUp('alice', async (page) => {
      await screenshots(page, 'sign-in');
      await expectAccessible(page, 'sign-in');
    });
    const bob = await signUp('bob');
    const carol = await signUp('carol');
    const players = [alice, bob, carol];
    for (const p of players) recordTraffic(p, () => recording);

    // Alice's lobby, unlisted: found only through its invite link.
    await alice.page.getByRole('heading', { name: 'Lobbies' }).waitFor();
    await screenshots(alice.page, 'lobbies');
    await expectAccessible(alice.page, 'lobbies');
    await alice.page.locator('#create-preset').selectOption('short');
    await alice.page.getByLabel('Unlisted: invite link only').check();
    await alice.page.getByRole('button', { name: 'Create lobby' }).click();
    const invite = await alice.page.getByLabel('Invite link', { exact: true }).inputValue();
    expect(invite).toMatch(new RegExp(`^${t.baseUrl}/#/join/`));
    await screenshots(alice.page, 'lobby');
    await expectAccessible(alice.page, 'lobby');

    await bob.page.goto(invite);
    await bob.page.getByRole('button', { name: 'Take a seat' }).waitFor();
    await screenshots(bob.page, 'join');
    await expectAccessible(bob.page, 'join');
    await bob.page.getByRole('button', { name: 'Take a seat' }).click();
    await bob.page.getByRole('heading', { name: 'Lobby: short' }).waitFor();
    await carol.page.goto(invite);
    await carol.page.getByRole('button', { name: 'Take a seat' }).click();

    // The last seat starts the game: every page goes to the table by itself.
    for (const p of players) await p.page.waitForSelector('.table', { timeout: 15_000 });
    const gameId = /#\/games\/([^/]+)/.exec(carol.page.url())![1];
    const seatOf = new Map<number, BrowserPlayer>();
    for (const p of players) {
      await p.page.waitForSelector('.table[data-my-seat]:not([data-my-seat=""])');
      seatOf.set(Number(await p.page.locator('.table').getAttribute('data-my-seat')), p);
    }
    expect([...seatOf.keys()].sort()).toEqual([0, 1, 2]);

    const tokens = [0, 1, 2].map((seat) => seatOf.get(seat)!.token);
    const chance = seededChance(15);
    let moves = 0;
    let shotTable = false;
    let shotTurns = false;
    for (;;) {
      const turn = await serverTurn(t.gql, gameId, tokens);
      if (turn.over) break;
      // Clicking a whole deal, and into the second for its screenshots, proves the table plays.
      if (turn.deal >= 1 && shotTable && shotTurns) break;
      const mover = seatOf.get(turn.toMove!)!;
      await tableAt(mover.page, turn.version);
      mover.snapshots.push(await snapshot(mover.page));
      if (moves % 7 === 0) {
        // The others' pages, wherever they are: also never another seat's cards.
        for (const other of players) if (other !== mover) other.snapshots.push(await snapshot(other.page));
      }
      // The table once mid-trick, where the hand has cards it may not play.
      if (!shotTable && turn.legal?.kind === 'play' && turn.deal >= 1 && (await mover.page.locator('.hand button.card[aria-disabled="true"]').count()) > 0) {
        shotTable = true;
        const last = mover.page.getByRole('button', { name: /^Show the last trick/ });
        if (await last.count()) await last.click();
        mover.snapshots.push(await snapshot(mover.page));
        await screenshots(mover.page, 'table');
        await expectAccessible(mover.page, 'table');
        await mover.page.setViewportSize(PHONE);
        await expectAccessible(mover.page, 'table (phone)');
        await mover.page.setViewportSize(DESKTOP);
      }
      if (!shotTurns && moves === 40) {
        // The inbox of the player to move, in a second tab: this game waits for them.
        shotTurns = true;
        const inbox = await mover.context.newPage();
        await inbox.goto(`${t.baseUrl}/#/turns`);
        await inbox.locator(`a[href="#/games/${gameId}"]`).waitFor();
        await screenshots(inbox, 'turns');
        await expectAccessible(inbox, 'turns');
        await inbox.close();
      }
      await clickMove(mover.page, turn, chance);
      moves++;
    }
    expect(moves).toBeGreaterThan(30);

    // The rest of the game through the API, the pages following by themselves (a page fetches
    // the table again on the game log's entries, coalescing them while it fetches): every 15th
    // move waits until every page shows it, and snapshots them.
    const seats = [0, 1, 2].map((seat) => ({ id: '', name: seatOf.get(seat)!.name, token: tokens[seat] }));
    await playGame(http(t.baseUrl), seats, gameId, {
      seed: 15,
      afterMove: async (move) => {
        moves++;
        if (move.result.status === 'finished' || moves % 15 !== 0) return;
        for (const p of players) {
          await tableAt(p.page, move.result.version);
          p.snapshots.push(await snapshot(p.page));
        }
      },
    });
    recording = false;
    expect(moves).toBeGreaterThan(300);

    // The final standings on every page are the server's.
    const sheet = (await t.gql<any>('query($id: ID!) { scoreSheet(gameId: $id) { status standings { seat place total } } }', { id: gameId }, alice.token)).data!.scoreSheet;
    expect(sheet.status).toBe('finished');
    const expected = [...sheet.standings].sort((a: any, b: any) => a.seat - b.seat).map((s: any) => ({ seat: s.seat, place: s.place, total: s.total }));
    const shown = async (page: Page) => {
      const rows = page.locator('table.standings tbody tr');
      await rows.first().waitFor();
      const out = [];
      for (let i = 0; i < (await rows.count()); i++) {
        const row = rows.nth(i);
        out.push({ seat: Number(await row.getAttribute('data-seat')), place: Number(await row.getAttribute('data-place')), total: Number(await row.getAttribute('data-total')) });
      }
      return out.sort((a, b) => a.seat - b.seat);
    };
    for (const p of players) {
      await p.page.getByRole('heading', { name: 'Final standings' }).waitFor();
      expect(await shown(p.page), `${p.name}'s standings`).toEqual(expected);
    }
    await screenshots(alice.page, 'game-over');

    // What each page held against the record: never another seat's cards.
    const record = (await t.gql<any>(
      'query($id: ID!) { gameRecord(gameId: $id) { firstDealer players rules { preset options { mizerkaQuotas target doubleMisere } } deals { deck moves { seat contract exchange bid discard trump play } } } }',
      { id: gameId },
      alice.token,
    )).data!.gameRecord;
    const knowledge = knowledgeByVersion(record);
    for (const [seat, p] of seatOf) expectNoForeignCards(p, seat, knowledge);

    // The score sheet, the replay and the history of a finished game.
    await alice.page.getByRole('link', { name: 'Score sheet' }).click();
    await alice.page.getByRole('heading', { name: 'Deals' }).waitFor();
    expect(await shown(alice.page)).toEqual(expected);
    expect(await alice.page.locator('table.deals tbody tr').count()).toBe(9);
    await screenshots(alice.page, 'score-sheet');
    await expectAccessible(alice.page, 'score sheet');

    await alice.page.getByRole('link', { name: 'Replay' }).click();
    await alice.page.getByText(/^Step 1 of \d+: Deal 1 is dealt\.$/).waitFor();
    for (let i = 0; i < 3; i++) await alice.page.getByRole('button', { name: 'Next' }).click();
    await alice.page.getByText(/^Step 4 of/).waitFor();
    await alice.page.getByRole('button', { name: 'Last' }).click();
    await alice.page.getByText(new RegExp(`totals ${expected.map((s: any) => `\\S+ ${s.total}`).join(', ')}`)).waitFor();
    await alice.page.getByRole('button', { name: 'Previous' }).click();
    await alice.page.getByLabel('Deal', { exact: true }).selectOption('1'); // the second deal, a few cards in
    for (let i = 0; i < 6; i++) await alice.page.getByRole('button', { name: 'Next' }).click();
    await screenshots(alice.page, 'replay');
    await expectAccessible(alice.page, 'replay');

    await alice.page.getByRole('link', { name: 'Your games' }).click();
    await alice.page.locator(`a[href="#/games/${gameId}/replay"]`).waitFor();
    await screenshots(alice.page, 'history');
    await expectAccessible(alice.page, 'history');

    // Carol signs out: the page forgets her tokens, and the API refuses them (the session ended).
    await carol.page.getByRole('link', { name: 'Account' }).click();
    await carol.page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    await carol.page.getByText('This browser').waitFor();
    await screenshots(carol.page, 'account');
    await expectAccessible(carol.page, 'account');
    await carol.page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await carol.page.getByRole('heading', { name: 'Play Mizerka' }).waitFor();
    await expect.poll(async () => (await t.gql('{ me { id } }', {}, carol.token)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    for (const p of players) await p.context.close();
  }, 480_000);

  it.each([
    ['classic', 'deal 2 of 18'],
    ['bidding', 'deal 2'],
  ])('one player plays a %s deal against two bots', async (preset, nextDeal) => {
    const dana = await signUp(`d${preset.slice(0, 3)}`);
    await dana.page.locator('#create-preset').selectOption(preset);
    await dana.page.getByRole('button', { name: 'Create lobby' }).click();
    await dana.page.getByLabel('Bot level').selectOption('basic');
    await dana.page.getByRole('button', { name: 'Add a bot' }).click();
    await dana.page.getByText('Seat 2: ').getByText('(bot, basic)').waitFor();
    await dana.page.getByRole('button', { name: 'Add a bot' }).click();
    await dana.page.waitForSelector('.table', { timeout: 15_000 });
    const gameId = /#\/games\/([^/]+)/.exec(dana.page.url())![1];
    const mySeat = Number(await dana.page.locator('.table').getAttribute('data-my-seat'));
    const tokens = Object.assign([], { [mySeat]: dana.token });

    const chance = seededChance(4);
    let mine = 0;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const turn = await serverTurn(t.gql, gameId, tokens, mySeat);
      if (turn.deal >= 1 || turn.over) break;
      if (turn.toMove === mySeat) {
        await tableAt(dana.page, turn.version);
        await clickMove(dana.page, turn, chance);
        mine++;
      } else {
        expect(Date.now() < deadline, 'the bots move').toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(mine).toBeGreaterThanOrEqual(preset === 'classic' ? 14 : 10); // classic: an exchange and 13 cards; bidding: 10 cards

    // The page follows the bots to the next deal, with the server's totals.
    const sheet = (await t.gql<any>('query($id: ID!) { scoreSheet(gameId: $id) { deals { finished runningTotals } } }', { id: gameId }, dana.token)).data!.scoreSheet;
    expect(sheet.deals[0].finished).toBe(true);
    await dana.page.getByRole('heading', { name: new RegExp(`${nextDeal}$`) }).waitFor();
    for (let seat = 0; seat < 3; seat++) {
      expect(Number(await dana.page.locator(`.seat[data-seat="${seat}"]`).getAttribute('data-total'))).toBe(sheet.deals[0].runningTotals[seat]);
    }
    await dana.context.close();
  }, 150_000);
});
