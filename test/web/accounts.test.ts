// Issue 26, "Web client": an account kept with a password, in Chromium at a phone's size (360×640):
// sign up, the session listed on the Account page, an access token the API refuses replaced by a
// refresh (the page goes on working), signing out (the session ends on the server) and in again.
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app.js';
import { withClient } from '../database.js';
import { chromiumAvailable, expectAccessible, screenshots, browserSuite } from './browser.js';

const available = chromiumAvailable('the web client account tests in Chromium');
const SMALL = { width: 360, height: 640 };

describe.skipIf(!available)('accounts in the web client', () => {
  let t: TestApp;
  let browser: Browser;
    // No cache of checked tokens: an access token expired in the database is refused at once.
  browserSuite((app, chromium) => ([t, browser] = [app, chromium]), { authCacheSeconds: 0 });

  const stored = (page: Page) =>
    page.evaluate("({ token: localStorage.getItem('mizerka.token'), refresh: localStorage.getItem('mizerka.refreshToken') })") as Promise<{
      token: string | null;
      refresh: string | null;
    }>;

  /** The page fits the viewport's width: nothing to scroll sideways. */
  const fitsWidth = async (page: Page) => {
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(SMALL.width);
  };

  it('signs up with a password, lists the session, refreshes a refused token, signs out and in again', async () => {
    const name = `pw${randomBytes(4).toString('hex')}`;
    const password = `correct horse ${randomBytes(4).toString('hex')}`;
    const context = await browser.newContext({ viewport: SMALL });
    const page = await context.newPage();

    // The path a link would open lands on the hash route, signing up first.
    await page.goto(`${t.baseUrl}/sign-up`);
    await page.getByRole('heading', { name: 'New here? Sign up' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/sign-up');
    await fitsWidth(page);
    await screenshots(page, 'sign-up');
    await expectAccessible(page, 'sign-up');
    await page.locator('#signup-name').fill(name);
    await page.getByLabel('Choose a password').fill(password);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText(`Signed in as ${name}`).first().waitFor();
    const first = await stored(page);
    expect(first.token).toBeTruthy();
    expect(first.refresh).toBeTruthy();

    // The Account page: this session, marked; the password and email sections.
    await page.goto(`${t.baseUrl}/#/account`);
    await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    await page.getByText('This browser').waitFor();
    await page.getByRole('button', { name: 'Change the password' }).waitFor();
    await page.getByRole('heading', { name: 'Email' }).waitFor();
    await fitsWidth(page);
    await expectAccessible(page, 'account');

    // The API refuses the access token (expired early, in the database): the page trades its
    // refresh token and goes on as if nothing happened.
    const expired = await withClient(t.databaseUrl, (c) =>
      c.query(
        `update api_tokens set expires_at = now() - interval '1 second'
         where session_id is not null and revoked_at is null and player_id = (select id from players where name = $1)`,
        [name],
      ),
    );
    expect(expired.rowCount).toBe(1);
    const refusedBefore = await t.gql('{ me { name } }', {}, first.token!);
    expect(refusedBefore.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    await page.getByRole('link', { name: 'Your games' }).click();
    await page.getByRole('heading', { name: 'Your games' }).waitFor();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByText('This browser').waitFor();
    const second = await stored(page);
    expect(second.token).not.toBe(first.token);
    expect(second.refresh).not.toBe(first.refresh);
    expect((await t.gql('{ me { name } }', {}, second.token!)).data).toEqual({ me: { name } });
    expect(await page.getByText(/no longer accepted|has ended/).count()).toBe(0);

    // Signing out ends the session on the server, not only here.
    await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    expect(await stored(page)).toEqual({ token: null, refresh: null });
    await expect
      .poll(async () => (await t.gql('{ me { name } }', {}, second.token!)).errors?.[0]?.extensions?.code)
      .toBe('UNAUTHENTICATED');

    // And in again with the password.
    await page.getByLabel('Name or email').fill(name);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(`Signed in as ${name}`).first().waitFor();
    await page.goto(`${t.baseUrl}/#/account`);
    await page.getByText('This browser').waitFor();
    await context.close();
  }, 90_000);
});
