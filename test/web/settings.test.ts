// Issue 27, "Web client": the Settings screen in Chromium — how the server reaches the player while
// away (Web Push on this device, email and its digest, quiet hours, reminders) and vacation — each
// section saved and read back from the server, accessible, and fitting a phone's width.
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app.js';
import { chromiumAvailable, expectAccessible, screenshots, browserSuite } from './browser.js';

const available = chromiumAvailable('the web client settings tests in Chromium');
const SMALL = { width: 360, height: 640 };

describe.skipIf(!available)('the Settings screen in the web client', () => {
  let t: TestApp;
  let browser: Browser;
  browserSuite((app, chromium) => ([t, browser] = [app, chromium]));

  it('saves notifications, reminders and a vacation, and the server holds what the page said', async () => {
    const name = `st${randomBytes(4).toString('hex')}`;
    const context = await browser.newContext({ viewport: SMALL });
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/#/sign-up`);
    await page.locator('#signup-name').fill(name);
    await page.getByLabel('Choose a password').fill(`a long passphrase ${name}`);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText(`Signed in as ${name}`).first().waitFor();
    const token = (await page.evaluate("localStorage.getItem('mizerka.token')")) as string;

    await page.getByRole('link', { name: 'Settings' }).first().click();
    for (const heading of ['Settings', 'Notifications on your devices', 'Notifications', 'Reminders before a time-out', 'Vacation']) {
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(SMALL.width);
    await expectAccessible(page, 'settings');
    await screenshots(page, 'settings');

    // Notifications: a digest every 6 hours, saved and read back by the API.
    const notify = page.locator('section[aria-labelledby="notify-title"]');
    await notify.getByLabel(/digest/i).first().check();
    await page.locator('#digest-hours').fill('6');
    await notify.getByRole('button', { name: 'Save', exact: true }).click();
    await notify.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const settings = await t.gql('{ myNotificationSettings { emailMode digestMinutes } }', {}, token);
    expect(settings.data?.myNotificationSettings).toEqual({ emailMode: 'digest', digestMinutes: 360 });

    // Reminders: back to the defaults, saved.
    const reminders = page.locator('section[aria-labelledby="reminders-title"]');
    await reminders.getByRole('button', { name: 'Save reminders' }).click();
    await reminders.getByText('Reminders saved').waitFor();
    const points = await t.gql('{ myReminderSettings { push { percent secondsBefore } } }', {}, token);
    expect(points.data?.myReminderSettings.push).toEqual([
      { percent: 50, secondsBefore: null },
      { percent: 10, secondsBefore: null },
      { percent: null, secondsBefore: 3600 },
    ]);

    // Vacation: away (as long as the days last), then back.
    const vacation = page.locator('section[aria-labelledby="vacation-title"]');
    await vacation.locator('button[type="submit"]').click();
    await vacation.getByRole('button', { name: 'I am back: end the vacation' }).waitFor();
    expect((await t.gql('{ myVacation { away } }', {}, token)).data?.myVacation.away).toBe(true);
    await vacation.getByRole('button', { name: 'I am back: end the vacation' }).click();
    await vacation.locator('button[type="submit"]').waitFor();
    expect((await t.gql('{ myVacation { away daysLeft } }', {}, token)).data?.myVacation).toEqual({ away: false, daysLeft: 29 });
    await context.close();
  }, 120_000);
});
