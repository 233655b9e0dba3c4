// Issue 28, "Web client": a tournament in Chromium at a phone's width — created through the form
// (by invitation), joined with the invite code the page shows (withdrawn from and joined again), two more players joining through
// the API, which starts it; the page follows to round 1 with its table and "your next game", and,
// after a resignation ends the game, to the final standings. Then a duplicate event of a person
// (moving through the API) and five server bots: once its board is released, the page's "Boards"
// section shows each seat position's comparison with the figures the API's `boards` holds.
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FAST } from '../../apps/api/src/bots/bots.test-kit.js';
import { MAKE_MOVE, pickMove, rng, TURN_QUERY } from '../../apps/api/src/games/games.test-kit.js';
import { PrismaService } from '../../apps/api/src/prisma/prisma.service.js';
import { TournamentsService } from '../../apps/api/src/tournaments/tournaments.service.js';
import type { TestApp } from '../app.js';
import { waitFor } from '../wait.js';
import { chromiumAvailable, expectAccessible, screenshots, browserSuite } from './browser.js';

const available = chromiumAvailable('the web client tournament tests in Chromium');
const SMALL = { width: 360, height: 640 };
const JOIN = 'mutation($id: ID!, $code: String) { joinTournament(id: $id, inviteCode: $code) { id status } }';

describe.skipIf(!available)('tournaments in the web client', () => {
  let t: TestApp;
  let browser: Browser;
  browserSuite((app, chromium) => ([t, browser] = [app, chromium]), FAST);

  it('creates an invite tournament, joins it, and follows it through its round to the standings', async () => {
    const suffix = randomBytes(3).toString('hex');
    const name = `tw${suffix}`;
    const context = await browser.newContext({ viewport: SMALL });
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/#/sign-up`);
    await page.locator('#signup-name').fill(name);
    await page.getByLabel('Choose a password').fill(`a long passphrase ${name}`);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText(`Signed in as ${name}`).first().waitFor();

    // The list, then the form: a round-robin of one table of `short`, by invitation, not entered yet.
    await page.getByRole('link', { name: 'Tournaments' }).first().click();
    await page.getByRole('heading', { name: 'Your tournaments' }).waitFor();
    await page.getByText('You have entered none yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill(`Cup ${suffix}`);
    await page.getByLabel('Preset').selectOption('short');
    await page.getByLabel('Format').selectOption('round-robin');
    await page.getByLabel('With an invite code').check();
    await page.getByLabel('Enter it myself').uncheck();
    await page.getByRole('button', { name: 'Create tournament' }).click();

    // Its page: the invite link carries the code, and the join form has it.
    await page.getByRole('heading', { name: `Tournament: Cup ${suffix}` }).waitFor();
    const invite = await page.locator('#tournament-invite-link').inputValue();
    const [, id, code] = /#\/tournaments\/([^?]+)\?code=(.+)$/.exec(invite)!;
    expect(decodeURIComponent(code)).toBe(await page.locator('#tournament-code').inputValue());
    await page.getByRole('button', { name: 'Join the tournament' }).click();
    await page.getByText('You are entered.').waitFor();
    await page.getByRole('heading', { name: 'Players (1)' }).waitFor();
    // Withdrawing before the start takes the entry back; joining again restores it.
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByRole('heading', { name: 'Players (0)' }).waitFor();
    await page.getByRole('button', { name: 'Join the tournament' }).click();
    await page.getByRole('heading', { name: 'Players (1)' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(SMALL.width);

    // Two more through the API: the third join starts round 1; the page follows by itself.
    const [bob, cat] = await Promise.all([t.register(`tb${suffix}`), t.register(`tc${suffix}`)]);
    expect((await t.gql(JOIN, { id, code: decodeURIComponent(code) }, bob.token)).errors).toBeUndefined();
    expect((await t.gql(JOIN, { id, code: decodeURIComponent(code) }, cat.token)).data?.joinTournament.status).toBe('running');
    await page.getByRole('heading', { name: 'Round 1: under way' }).waitFor();
    await page.getByRole('heading', { name: 'Your next game' }).waitFor();
    const rounds = (await t.gql('query($id: ID!) { tournamentRounds(id: $id) { tables { gameId players } } }', { id }, bob.token)).data!.tournamentRounds;
    const gameId: string = rounds[0].tables[0].gameId;
    expect(await page.getByRole('link', { name: 'Go to your table' }).getAttribute('href')).toBe(`#/games/${gameId}`);
    const table = page.locator(`[data-game="${gameId}"]`);
    for (const player of [name, `tb${suffix}`, `tc${suffix}`]) await table.getByText(player, { exact: false }).first().waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(SMALL.width);
    await expectAccessible(page, 'tournament (running)');

    // Bob resigns: the game ends, the round and the tournament (one round of one table) finish.
    expect((await t.gql('mutation($input: ResignInput!) { resign(input: $input) { version } }', { input: { gameId } }, bob.token)).errors).toBeUndefined();
    await page.getByRole('heading', { name: 'Round 1: finished' }).waitFor();
    await page.getByText('finished', { exact: true }).waitFor();
    const rows = page.locator('table.tournament-standings tbody tr');
    const standings = (await t.gql('query($id: ID!) { tournamentStandings(id: $id) { playerId rank points } }', { id }, bob.token)).data!.tournamentStandings;
    expect(await rows.count()).toBe(3);
    const named = new Map([[bob.id, `tb${suffix}`], [cat.id, `tc${suffix}`]]);
    for (const [i, s] of standings.entries()) {
      const row = rows.nth(i);
      expect(await row.getAttribute('data-player')).toBe(named.get(s.playerId) ?? name);
      expect(await row.locator('td').first().textContent()).toBe(String(s.rank));
    }
    // The resigning seat is placed last, with no points.
    expect(await rows.last().getAttribute('data-player')).toBe(`tb${suffix}`);
    await expect(table.getByRole('link', { name: `Score sheet of table 1` }).getAttribute('href')).resolves.toBe(`#/games/${gameId}/scores`);
    await expectAccessible(page, 'tournament (finished)');
    await screenshots(page, 'tournament');
    await context.close();
  }, 120_000);

  it('shows a released duplicate board\'s comparison table with the figures of the API', async () => {
    const suffix = randomBytes(3).toString('hex');
    const [organiser, person] = await Promise.all([t.register(`to${suffix}`), t.register(`tp${suffix}`)]);
    const made = await t.gql('mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }', {
      input: { name: `Dup ${suffix}`, preset: 'bidding', options: { target: 1 }, format: 'duplicate', formatOptions: { rounds: 1 }, minPlayers: 6, maxPlayers: 6, botLevel: 'random', startsAt: new Date(Date.now() + 3_600_000).toISOString() },
    }, organiser.token);
    expect(made.errors).toBeUndefined();
    const id: string = made.data!.createTournament.id;
    expect((await t.gql(JOIN, { id }, person.token)).errors).toBeUndefined();
    // The start time is an hour away: the start job is run now, as its time would run it.
    await t.app.get(TournamentsService).startDue(id);
    const BOARDS = `query($id: ID!) { tournament(id: $id) { status players { playerId } boards { number released results { position playerId score matchpoints tops } } } }`;

    const context = await browser.newContext({ viewport: SMALL });
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/#/sign-up`);
    await page.locator('#signup-name').fill(`tv${suffix}`);
    await page.getByLabel('Choose a password').fill(`a long passphrase tv${suffix}`);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText(`Signed in as tv${suffix}`).first().waitFor();
    await page.goto(`${t.baseUrl}/#/tournaments/${id}`);
    // Held while the person's table plays: no comparison yet.
    await page.getByRole('heading', { name: 'Board 1: not released yet' }).waitFor();
    expect(await page.getByRole('region', { name: /comparison$/ }).count()).toBe(0);

    // The person plays their table through the API (the bots play theirs), until the board is released.
    const random = rng(28);
    await waitFor(async () => {
      const rounds = (await t.gql('query($id: ID!) { tournamentRounds(id: $id) { tables { gameId players status } } }', { id }, person.token)).data!.tournamentRounds as { tables: { gameId: string; players: string[]; status: string }[] }[];
      const mine = rounds.flatMap((r) => r.tables).find((x) => x.players.includes(person.id))!;
      if (mine.status === 'finished') return true;
      const game = (await t.gql(TURN_QUERY, { id: mine.gameId }, person.token)).data!.game;
      if (game.status === 'active' && game.view.legalMoves !== null) {
        const moved = await t.gql(MAKE_MOVE, { input: { gameId: mine.gameId, expectedVersion: game.version, ...pickMove(game.view.legalMoves, random) } }, person.token);
        if (moved.errors && moved.errors[0].extensions?.code !== 'CONFLICT') throw new Error(JSON.stringify(moved.errors));
      }
      return false;
    }, 'the person\'s table finished', { timeout: 90_000, every: 20 });
    const tournament = await waitFor(async () => {
      const got = (await t.gql(BOARDS, { id }, person.token)).data!.tournament;
      return got.status === 'finished' && got.boards[0].released && got;
    }, 'the board released', { timeout: 90_000 });
    const results = tournament.boards[0].results as { position: number; playerId: string; score: number; matchpoints: number; tops: number }[];
    expect(results).toHaveLength(6);

    // The page follows to the release: per seat position a table of the two who held those cards.
    await page.getByRole('heading', { name: 'Board 1: released' }).waitFor();
    const names = new Map((await t.app.get(PrismaService).player.findMany({ where: { id: { in: results.map((r) => r.playerId) } }, select: { id: true, name: true } })).map((p) => [p.id, p.name]));
    const figures = (r: { score: number; matchpoints: number; tops: number }) => [String(r.score), `${String(r.matchpoints)} of ${r.tops}`, `${Math.round((100 * r.matchpoints) / r.tops)}%`];
    for (const position of [0, 1, 2]) {
      const region = page.getByRole('region', { name: `Board 1, seat ${position + 1} comparison` });
      await region.waitFor();
      const rows = region.getByRole('row');
      // A header row, then one per table.
      expect(await rows.count()).toBe(3);
      const shown = new Map<string, string[]>();
      for (let i = 1; i < 3; i++) {
        const row = rows.nth(i);
        shown.set((await row.getByRole('rowheader').textContent())!.trim(), await row.getByRole('cell').allTextContents());
      }
      const expected = new Map(results.filter((r) => r.position === position).map((r) => [names.get(r.playerId)!, figures(r)]));
      expect(expected.size).toBe(2);
      expect(shown).toEqual(expected);
      // Tops: one other result; the two matchpoints make one (a win and a loss, or two halves).
      expect(results.filter((r) => r.position === position).reduce((n, r) => n + r.matchpoints, 0)).toBe(1);
    }
    expect(await page.getByRole('region', { name: /comparison$/ }).count()).toBe(3);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(SMALL.width);
    await expectAccessible(page, 'tournament (duplicate board released)');
    await context.close();
  }, 150_000);
});
