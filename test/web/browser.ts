// Chromium for the web client's tests: Debian's /usr/bin/chromium (CHROMIUM_PATH to override),
// driven by playwright-core. Without it the browser tests skip themselves, saying so (in CI they fail).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AppConfig } from '../../apps/api/src/config/app-config.js';
import { startTestApp, type TestApp } from '../app.js';
import { serviceThere } from '../services.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Whether Chromium is there; without it the tests of `what` skip, or in CI fail (test/services.ts). */
export function chromiumAvailable(what: string): boolean {
  return serviceThere(what, existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags Chromium keeps calling home on a closed network.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A browser test file's server and Chromium: started before its tests (the client built first),
 * handed to `take`, closed after them.
 */
export function browserSuite(take: (t: TestApp, browser: Browser) => void, overrides: Partial<AppConfig> = {}): void {
  let opened: [TestApp, Browser] | undefined;
  beforeAll(async () => {
    ensureWebBuild();
    opened = await Promise.all([startTestApp(overrides), launchChromium()]);
    take(...opened);
  }, 120_000);
  afterAll(async () => {
    await opened?.[1].close();
    await opened?.[0].close();
  });
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function webBuildFresh(index: string): boolean {
  const web = join(ROOT, 'apps', 'web');
  const sources = Math.max(newest(join(web, 'src')), statSync(join(web, 'index.html')).mtimeMs, statSync(join(web, 'vite.config.ts')).mtimeMs);
  return existsSync(index) && statSync(index).mtimeMs > sources;
}

/**
 * dist/web as the API serves it: built by `npm run build`; built again here when a source is
 * newer. Test files run in parallel: a lock directory lets one of them build while the others wait.
 */
export function ensureWebBuild() {
  const index = join(ROOT, 'dist', 'web', 'index.html');
  if (webBuildFresh(index)) return;
  const lock = join(ROOT, 'node_modules', '.cache', 'mizerka-web-build.lock');
  mkdirSync(dirname(lock), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Held by another test file (or left by a killed run: taken over after two minutes).
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(pause, 0, 0, 200);
    }
  }
  try {
    if (webBuildFresh(index)) return;
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
      // vitest sets NODE_ENV=test, which would make React's development build the one bundled.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (result.status !== 0 || !existsSync(index)) throw new Error(`vite build failed: ${result.stdout}\n${result.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A screenshot of the page at desktop and at phone size: test-results/screenshots/<screen>-<size>.png. */
export async function screenshots(page: Page, screen: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(SCREENSHOTS, `${screen}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(SCREENSHOTS, `${screen}-phone.png`), fullPage: true });
  await page.setViewportSize(before);
}

/** axe-core on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n: { target: unknown[] }) => n.target.join(' ')).join('; ')}`),
    `axe on the ${screen} screen`,
  ).toEqual([]);
}

/** Every card a page names: data-card attributes and the text "Ace of spades" etc. */
const RANK_WORDS: Record<string, string> = {
  Two: '2', Three: '3', Four: '4', Five: '5', Six: '6', Seven: '7', Eight: '8', Nine: '9', Ten: 'T', Jack: 'J', Queen: 'Q', King: 'K', Ace: 'A',
};
const SUIT_WORDS: Record<string, string> = { clubs: 'C', diamonds: 'D', hearts: 'H', spades: 'S' };

export async function cardsOnPage(page: Page): Promise<Set<string>> {
  // A string, evaluated in the page: the test's own tsconfig has no DOM types.
  const { html, text } = (await page.evaluate("({ html: document.documentElement.outerHTML, text: document.body.innerText + ' ' + document.body.textContent })")) as { html: string; text: string };
  const found = new Set<string>();
  for (const m of html.matchAll(/data-cards?="([^"]*)"/g)) for (const card of m[1].split(' ')) if (/^[2-9TJQKA][CDHS]$/.test(card)) found.add(card);
  for (const m of text.matchAll(/\b(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (clubs|diamonds|hearts|spades)\b/g)) {
    found.add(RANK_WORDS[m[1]] + SUIT_WORDS[m[2]]);
  }
  return found;
}
