// Issue 31, "This turn's features", in the running client (Chromium, English, at a phone's size):
// the lobby list paged by cursor and live (a new lobby appears without a reload), watching a game
// being played from the lobbies screen (the spectator's table and the spectators' chat), the chat's
// mute, block and report, an app's consent page and the authorized apps it adds to the account,
// and a duplicate tournament's boards. The other features of the turn have their own files:
// accounts.test.ts and passkeys.test.ts (password, sessions, passkeys), settings.test.ts and
// push.test.ts (push permission on a click, digest, quiet hours, reminders, vacation),
// tournaments.test.ts (list, page, standings).
import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app.js';
import { chromiumAvailable, ensureWebBuild, launchChromium } from './browser.js';
import { lobbyWithBots, prepareContext, signUp, SIZES, type SessionTokens } from './screens.js';

const available = chromiumAvailable('the web client feature tests in Chromium');
const PHONE = SIZES[0];

describe.skipIf(!available)("this turn's features in the web client", () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    ensureWebBuild();
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
  }, 120_000);
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function pageOf(who: SessionTokens): Promise<Page> {
    const context = await browser.newContext({ viewport: PHONE });
    contexts.push(context);
    await prepareContext(context, who, 'en');
    return context.newPage();
  }

  it('pages the open lobbies by cursor and shows a new one without a reload', async () => {
    // 23 open lobbies of 23 hosts: a page of 20 and one of 3.
    const hosts = await Promise.all(Array.from({ length: 24 }, (_, i) => t.register(`lh${i}x${randomBytes(3).toString('hex')}`)));
    for (const host of hosts.slice(0, 23)) await lobbyWithBots(t, host.token, 0);
    const me = await signUp(t, 'lp');
    const page = await pageOf(me);
    await page.goto(`${t.baseUrl}/#/lobbies`);
    const rows = page.locator('section[aria-labelledby="open-lobbies"] table.list tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000, message: 'the first page of lobbies' }).toBe(20).catch(async (error: Error) => {
      throw new Error(`${error.message}\n--- the page:\n${(await page.evaluate('document.body.innerText')) as string}`);
    });
    const pager = page.getByRole('navigation', { name: 'Pages of open tables' });
    await pager.getByText('Page 1 of 2').waitFor();
    const firstPage = await rows.allInnerTexts();
    await pager.getByRole('button', { name: 'Older' }).click();
    await pager.getByText('Page 2 of 2').waitFor();
    await expect.poll(() => rows.count()).toBe(3);
    const secondPage = await rows.allInnerTexts();
    expect(secondPage.filter((row) => firstPage.includes(row))).toEqual([]);
    await expect(pager.getByRole('button', { name: 'Older' }).isDisabled()).resolves.toBe(true);
    await pager.getByRole('button', { name: 'Newer' }).click();
    await pager.getByText('Page 1 of 2').waitFor();
    await expect.poll(() => rows.count()).toBe(20);

    // Live: another host opens a table; it is listed first, the page never reloaded.
    await page.evaluate('window.__sameDocument = true');
    const newcomer = hosts[23];
    await lobbyWithBots(t, newcomer.token, 0, 'classic');
    const newcomerName = ((await t.gql<any>('{ me { name } }', {}, newcomer.token)).data!.me.name) as string;
    await rows.first().getByText(newcomerName).waitFor({ timeout: 15_000 });
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    await pager.getByText('Page 1 of 2').waitFor();
  }, 120_000);

  it('watches a game being played from the lobbies screen, and talks in the spectators’ room', async () => {
    const [player, watcher] = await Promise.all([signUp(t, 'pl'), signUp(t, 'wa')]);
    const { gameId } = await lobbyWithBots(t, player.accessToken, 2);
    const page = await pageOf(watcher);
    await page.goto(`${t.baseUrl}/#/lobbies`);
    const watch = page.locator(`section[aria-labelledby="games-being-played"] li[data-game="${gameId}"]`);
    await watch.getByText(player.player.name).waitFor();
    await watch.getByRole('link', { name: 'Watch' }).click();
    expect(new URL(page.url()).hash).toBe(`#/games/${gameId}`);
    const table = page.locator('.table');
    await table.waitFor();
    // A spectator's view: no seat, no hand of anyone's.
    expect(await table.getAttribute('data-my-seat')).toBeFalsy();
    expect(await page.locator('.hand button.card').count()).toBe(0);
    // The spectators' room is the one to write in.
    await page.getByRole('tab', { name: 'Spectators' }).waitFor();
    const text = `nice play ${randomBytes(3).toString('hex')}`;
    await page.locator('#chat-input-spectators').fill(text);
    await page.locator('.chat-form button[type="submit"]').click();
    await page.locator('.chat-messages').getByText(text).waitFor();
    const said = await t.gql<any>('query($g: ID!) { chatMessages(gameId: $g, room: spectators) { messages { body author { name } } } }', { g: gameId }, watcher.accessToken);
    expect(said.data!.chatMessages.messages).toContainEqual({ body: text, author: { name: watcher.player.name } });
  }, 120_000);

  it("mutes, blocks and reports from a lobby's chat", async () => {
    const [host, rude, loud] = await Promise.all([signUp(t, 'ch'), signUp(t, 'cr'), signUp(t, 'cl')]);
    const { lobbyId } = await lobbyWithBots(t, host.accessToken, 0, 'classic-4');
    for (const who of [rude, loud]) {
      const joined = await t.gql('mutation($id: ID!) { joinLobby(input: { lobbyId: $id }) { id } }', { id: lobbyId }, who.accessToken);
      expect(joined.errors).toBeUndefined();
    }
    const say = async (who: SessionTokens, body: string) => {
      const sent = await t.gql('mutation($input: SendChatInput!) { sendChatMessage(input: $input) { seq } }', { input: { lobbyId, room: 'players', body } }, who.accessToken);
      expect(sent.errors).toBeUndefined();
    };
    await say(loud, 'LOUD MESSAGE');
    await say(rude, 'a rude message');
    const page = await pageOf(host);
    await page.goto(`${t.baseUrl}/#/lobbies/${lobbyId}`);
    const messages = page.locator('.chat-messages');
    await messages.getByText('a rude message').waitFor();

    await page.getByRole('button', { name: `Report the message of ${rude.player.name}` }).click();
    await page.getByRole('status').filter({ hasText: 'Reported' }).waitFor();
    await page.getByRole('button', { name: `Mute ${loud.player.name}` }).click();
    await expect.poll(() => messages.getByText('LOUD MESSAGE').count()).toBe(0);
    await page.getByRole('button', { name: `Block ${rude.player.name}` }).click();
    await expect.poll(() => messages.getByText('a rude message').count()).toBe(0);
    const blocked = await t.gql<any>('{ blockedPlayers { player { name } } }', {}, host.accessToken);
    expect(blocked.data!.blockedPlayers).toContainEqual({ player: { name: rude.player.name } });
    // A reload: the server leaves the muted author's messages out.
    await page.reload();
    await page.locator('.chat-messages[data-loaded="true"]').waitFor({ state: 'attached' });
    expect(await messages.getByText('LOUD MESSAGE').count()).toBe(0);
  }, 120_000);

  it("approves an app on the consent page, then lists it among the account's authorized apps", async () => {
    const [owner, person] = await Promise.all([signUp(t, 'ao'), signUp(t, 'ap')]);
    const made = await t.gql<any>('mutation($input: CreateOAuthAppInput!) { createOAuthApp(input: $input) { clientId } }', { input: { name: 'Score keeper', redirectUris: ['https://scores.example/callback'] } }, owner.accessToken);
    const clientId = made.data!.createOAuthApp.clientId as string;
    const authorize = new URL('/oauth/authorize', t.baseUrl);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: 'https://scores.example/callback', code_challenge: challenge, code_challenge_method: 'S256', scope: 'read', state: 'st' })) {
      authorize.searchParams.set(k, v);
    }
    const page = await pageOf(person);
    // The app's callback, answered here: the test's network reaches no other host.
    await page.route('https://scores.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the app' }));
    await page.goto(authorize.toString());
    await page.getByRole('heading', { name: 'Score keeper asks for access' }).waitFor();
    await page.getByRole('button', { name: /approve/i }).click();
    await page.waitForURL(/^https:\/\/scores\.example\/callback\?/);
    const back = new URL(page.url());
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(back.searchParams.get('state')).toBe('st');
    // The app trades the code for its tokens: from now on it is an authorized app.
    const traded = await fetch(new URL('/oauth/token', t.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: 'https://scores.example/callback', client_id: clientId, code_verifier: verifier }).toString(),
    });
    expect(traded.status).toBe(200);

    await page.goto(`${t.baseUrl}/#/account`);
    const apps = page.locator('section[aria-labelledby="apps-title"]');
    await apps.getByText('Score keeper').waitFor();
  }, 120_000);

  it("shows a duplicate tournament's boards", async () => {
    const host = await signUp(t, 'du');
    const made = await t.gql<any>(
      'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }',
      { input: { name: 'Duplicate cup', preset: 'short', format: 'duplicate', formatOptions: { rounds: 2 }, startsAt: new Date(Date.now() + 86_400_000).toISOString() } },
      host.accessToken,
    );
    expect(made.errors).toBeUndefined();
    const page = await pageOf(host);
    await page.goto(`${t.baseUrl}/#/tournaments/${made.data!.createTournament.id}`);
    await page.locator('section[aria-labelledby="tournament-boards"] [data-board="1"]').waitFor();
    expect(await page.locator('section[aria-labelledby="tournament-boards"] [data-board]').count()).toBe(2);
  }, 60_000);
});
