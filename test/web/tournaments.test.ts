// Issue 28, "Web client": a tournament in Chromium at a phone's width — created through the form
// (by invitation), joined with the invite code the page shows (withdrawn from and joined again), two more players joining through
// the API, which starts it; the page follows to round 1 with its table and "your next game", and,
// after a resignation ends the game, to the final standings.
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app.js';
import { chromiumAvailable, ensureWebBuild, expectAccessible, launchChromium, screenshots } from './browser.js';

const available = chromiumAvailable('the web client tournament tests in Chromium');
const SMALL = { width: 360, height: 640 };
const JOIN = 'mutation($id: ID!, $code: String) { joinTournament(id: $id, inviteCode: $code) { id status } }';

describe.skipIf(!available)('tournaments in the web client', () => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    ensureWebBuild();
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

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
});
