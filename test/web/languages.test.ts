// Issue 31, "Languages": the web client in English, German, Japanese and Polish. Chromium switches
// each language with the header's picker and visits the main screens: the document's language
// follows, no message key shows as text (nor in a label a screen reader reads), i18next asked for
// no key the message files lack, and the screens' headings are not the English ones.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app.js';
import { chromiumAvailable, expectAccessible, ROOT, browserSuite } from './browser.js';

const available = chromiumAvailable('the web client language tests in Chromium');
const LANGUAGES = ['en', 'de', 'ja', 'pl'] as const;
const LOCALES = join(ROOT, 'apps', 'web', 'src', 'locales');

/** Every key of the English files, as "a.b" and "ns:a.b", plural suffixes folded: text that must never show. */
function allKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (namespace: string, tree: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      const path = `${prefix}${key.replace(/(_ordinal)?_(zero|one|two|few|many|other)$/, '')}`;
      if (value && typeof value === 'object') walk(namespace, value as Record<string, unknown>, `${path}.`);
      else if (path.includes('.')) keys.add(path).add(`${namespace}:${path}`);
      else keys.add(`${namespace}:${path}`);
    }
  };
  for (const file of readdirSync(join(LOCALES, 'en'))) walk(file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(LOCALES, 'en', file), 'utf8')), '');
  return keys;
}
const KEYS = allKeys();
/** Key-like words: "nav.lobbies", "create.presetOption", "common:save" (no player name has a dot or colon). */
const KEY_LIKE = /^[a-z][A-Za-z-]+(?:[.:][A-Za-z][\w-]+)+$/;

/** The page's words: visible text and the labels, placeholders and titles read out. */
async function wordsOnPage(page: Page): Promise<string[]> {
  const text = (await page.evaluate(
    `[document.body.innerText, ...[...document.querySelectorAll('[aria-label],[placeholder],[title],option')].flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('placeholder'), e.getAttribute('title'), e.tagName === 'OPTION' ? e.textContent : null])].filter(Boolean).join('\\n')`,
  )) as string;
  return text.split(/[\s,;()（）「」“”„"'!?…]+/).map((w) => w.replace(/[.:]+$/, '')).filter(Boolean);
}

interface Screen {
  name: string;
  path: () => string;
}

describe.skipIf(!available)('the web client’s languages', () => {
  let t: TestApp;
  let browser: Browser;
  browserSuite((app, chromium) => ([t, browser] = [app, chromium]));

  /** The language picked in the header, the document's lang following it. */
  async function pick(page: Page, language: string) {
    await page.locator('header .language select').selectOption(language);
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe(language);
  }

  /** The screen at `path` loaded in `language`: checked, and its first heading returned. */
  async function check(page: Page, language: string, screen: string): Promise<string> {
    const heading = page.locator('main h1').first();
    await heading.waitFor();
    // Loaded: no "Loading …" line left.
    await expect.poll(() => page.locator('main p.muted[role="status"]').count(), { timeout: 15_000 }).toBe(0);
    expect(await page.evaluate('document.documentElement.lang'), `${screen} in ${language}`).toBe(language);
    const raw = (await wordsOnPage(page)).filter((w) => KEYS.has(w) || KEY_LIKE.test(w));
    expect(raw, `message keys shown on ${screen} in ${language}`).toEqual([]);
    expect(await page.evaluate('window.__i18nMissing'), `keys missing on ${screen} in ${language}`).toEqual([]);
    return (await heading.textContent()) ?? '';
  }

  it('switches each language with the picker, and every main screen speaks it', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    // The build collects the keys i18next could not find (src/i18n.ts) when asked to.
    await context.addInitScript("localStorage.setItem('mizerka.i18n.collectMissing', '1')");
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));

    // Signed out: the sign-in screen in each language (Chromium's own language is English).
    await page.goto(`${t.baseUrl}/#/sign-in`);
    const signInHeadings: Record<string, string> = {};
    for (const language of LANGUAGES) {
      await pick(page, language);
      signInHeadings[language] = await check(page, language, 'sign-in');
    }
    // The choice is kept in this browser: a reload opens in Polish.
    await page.reload();
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('pl');
    await pick(page, 'en');

    // Signed up in English; a lobby with a bot (still open: a full one goes to its table), and a tournament, to show.
    const name = `lg${randomBytes(4).toString('hex')}`;
    await page.goto(`${t.baseUrl}/#/sign-up`);
    await page.locator('#signup-name').fill(name);
    await page.getByLabel('Choose a password').fill(`a long passphrase ${name}`);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText(`Signed in as ${name}`).first().waitFor();
    await page.locator('#create-preset').selectOption('short');
    await page.getByRole('button', { name: 'Create lobby' }).click();
    await page.getByRole('heading', { name: 'Lobby: short' }).waitFor();
    const lobby = page.url().slice(page.url().indexOf('#'));
    await page.getByRole('button', { name: 'Add a bot' }).click();
    await page.getByText('Seat 2: ').getByText('(bot, basic)').waitFor();
    await page.goto(`${t.baseUrl}/#/tournaments`);
    await page.getByLabel('Name', { exact: true }).fill(`Cup ${name}`);
    await page.getByRole('button', { name: 'Create tournament' }).click();
    await page.getByRole('heading', { name: `Tournament: Cup ${name}` }).waitFor();
    const tournament = page.url().slice(page.url().indexOf('#'));

    const screens: Screen[] = [
      { name: 'lobbies', path: () => '#/lobbies' },
      { name: 'lobby', path: () => lobby },
      { name: 'turns', path: () => '#/turns' },
      { name: 'tournaments', path: () => '#/tournaments' },
      { name: 'tournament', path: () => tournament },
      { name: 'history', path: () => '#/history' },
      { name: 'settings', path: () => '#/settings' },
      { name: 'account', path: () => '#/account' },
    ];
    const english: Record<string, string> = {};
    for (const language of LANGUAGES) {
      await page.goto(`${t.baseUrl}/#/lobbies`);
      await pick(page, language);
      for (const screen of screens) {
        await page.goto(`${t.baseUrl}/${screen.path()}`);
        const heading = await check(page, language, screen.name);
        if (language === 'en') english[screen.name] = heading;
        else expect(heading, `the ${screen.name} heading in ${language}`).not.toBe(english[screen.name]);
      }
      // The navigation too.
      const nav = await page.locator('header nav').innerText();
      if (language !== 'en') expect(nav).not.toContain('Tournaments');
      // axe on a screen with a form, in a language other than English (the other tests run axe in English).
      if (language === 'ja') {
        await page.goto(`${t.baseUrl}/#/lobbies`);
        await page.locator('main h1').waitFor();
        await expectAccessible(page, `lobbies (${language})`);
      }
    }
    for (const language of LANGUAGES.slice(1)) expect(signInHeadings[language], `sign-in in ${language}`).not.toBe(signInHeadings.en);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
