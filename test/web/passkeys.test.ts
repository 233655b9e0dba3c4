// Issue 26: passkeys in the browser. Chromium's virtual authenticator (the DevTools protocol's
// WebAuthn domain) stands in for a phone or a laptop's lock: sign up with a passkey, sign out,
// sign in with it (no name asked), and find it on the Account page.
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app.js';
import { chromiumAvailable, DESKTOP, ensureWebBuild, launchChromium } from './browser.js';

const available = chromiumAvailable('the web client passkey tests in Chromium');

/** A platform authenticator that holds discoverable passkeys and verifies its user at once. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
}

describe.skipIf(!available)('passkeys in the web client', () => {
  let browser: Browser;
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    ensureWebBuild();
    [browser, t] = await Promise.all([launchChromium(), startTestApp()]);
    // WebAuthn refuses an IP address: the page is opened at localhost (the relying party then).
    origin = t.baseUrl.replace('127.0.0.1', 'localhost');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs up with a passkey, signs out, signs in with it, and lists it on the Account page', async () => {
    const name = `pkweb${process.pid % 10_000}`;
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await page.goto(`${origin}/`);

    await page.fill('#passkey-signup-name', name);
    await page.getByRole('button', { name: 'Sign up with a passkey' }).click();
    await page.waitForSelector('#passkey-signup-name', { state: 'detached' });
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);

    await page.goto(`${origin}/#/account`);
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await page.getByRole('list', { name: 'Your passkeys' }).getByText('Passkey', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();

    // Signed out: the sign-in screen; the passkey signs in with no name typed.
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForSelector('#passkey-signup-name', { state: 'detached' });
    await page.goto(`${origin}/#/account`);
    await expect.poll(() => page.getByText(`Signed in as ${name}.`).count()).toBe(1);
    const passkeys = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    await expect.poll(() => passkeys.count()).toBe(1);
    expect(await passkeys.first().textContent()).toMatch(/last used/);
    await expect.poll(() => page.getByText('Signed in with passkey').count()).toBeGreaterThanOrEqual(1);
    await context.close();
  }, 120_000);
  it("issue 26's Done when: a passkey account sets a password, signs in with it elsewhere, sees both sessions and ends the other", async () => {
    const name = `pkdone${process.pid % 10_000}`;
    const password = 'a passphrase of mine';
    const phone = await browser.newContext({ viewport: DESKTOP });
    const a = await phone.newPage();
    await virtualAuthenticator(a);
    await a.goto(`${origin}/`);
    await a.fill('#passkey-signup-name', name);
    await a.getByRole('button', { name: 'Sign up with a passkey' }).click();
    await a.waitForSelector('#passkey-signup-name', { state: 'detached' });
    await a.goto(`${origin}/#/account`);
    await a.fill('#password-new', password);
    await a.getByRole('button', { name: 'Set the password' }).click();
    await a.getByText('Password set').waitFor();

    const laptop = await browser.newContext({ viewport: DESKTOP });
    const b = await laptop.newPage();
    await b.goto(`${origin}/`);
    await b.fill('#signin-login', name);
    await b.fill('#signin-password', password);
    await b.getByRole('button', { name: 'Sign in', exact: true }).click();
    await b.waitForSelector('#signin-login', { state: 'detached' });

    await a.reload();
    const sessions = a.locator('section[aria-labelledby="sessions-title"] li');
    await expect.poll(() => sessions.count()).toBe(2);
    const text = (await sessions.allTextContents()).join(' | ');
    expect(text).toMatch(/Signed in with passkey/);
    expect(text).toMatch(/Signed in with password/);
    await a.locator('section[aria-labelledby="sessions-title"]').getByRole('button', { name: /^Sign out .*last active/ }).click();
    await expect.poll(() => sessions.count()).toBe(1);

    // The laptop's session has ended: its page goes back to signing in.
    await b.goto(`${origin}/#/account`);
    await b.waitForSelector('#signin-login');
    await phone.close();
    await laptop.close();
  }, 120_000);
});
