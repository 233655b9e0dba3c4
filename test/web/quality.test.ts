// Issue 31, "Quality bar": every screen of the web client, in each of its four languages, at two
// phone sizes (390×844, 360×640) and a desktop's (1280×800): axe finds no serious or critical
// violation, nothing scrolls sideways, and a screenshot lands in
// test-results/screenshots/<screen>-<size>-<language>.png. The problems of every screen are
// gathered and reported together.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app.js';
import { chromiumAvailable, ensureWebBuild, launchChromium, SCREENSHOTS } from './browser.js';
import { everyScreen, LANGUAGES, prepareContext, SIZES, SWEEP_SIZES, type Language, type ScreenCase, type SessionTokens } from './screens.js';

const available = chromiumAvailable('the web client quality tests in Chromium');
/** Pages checked at once: two cores share the server, Chromium and axe. */
const PARALLEL = 3;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's serious and critical violations on the page as it is, one line each. axe-core's source is
 * evaluated in the page once (the page's content security policy allows no inline script tag, and
 * evaluating does not go through it), and only violations are gathered: the cheap way on two cores.
 */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    resultTypes: ['violations'],
  }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`)) as {
    id: string;
    impact: string | null;
    help: string;
    targets: string[];
  }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.targets.join('; ')}`);
}

/** How far the page is wider than the viewport (0: no sideways scrolling), and what sticks out. */
export async function overflow(page: Page): Promise<{ excess: number; widest: string[] }> {
  // A string, evaluated in the page: the tests' tsconfig has no DOM types.
  return (await page.evaluate(`(() => {
    const excess = document.scrollingElement.scrollWidth - window.innerWidth;
    const widest = excess <= 0 ? [] : [...document.querySelectorAll('main *, header *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''));
    return { excess, widest };
  })()`)) as { excess: number; widest: string[] };
}

/** Two frames: the layout of a new viewport size done and painted. */
export const settle = (page: Page) => page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))))');

/** The screen loaded: its heading, its data (no request for half a second), its own mark if it has one. */
export async function openScreen(page: Page, base: string, screen: ScreenCase, language?: Language) {
  await page.goto(`${base}${language && screen.pathIn ? screen.pathIn(language) : screen.path}`);
  await page.locator('main h1').first().waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  if (screen.ready) await page.locator(`main ${screen.ready}`).first().waitFor({ timeout: 15_000 });
  await screen.prepare?.(page, language);
}

describe.skipIf(!available)('every screen in every language, at phone and desktop size', () => {
  let t: TestApp;
  let browser: Browser;
  let people: { me: SessionTokens; other: SessionTokens };
  let screens: ScreenCase[];
  beforeAll(async () => {
    ensureWebBuild();
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    const made = await everyScreen(t);
    people = made;
    screens = made.screens;
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('finds no serious or critical axe violation and no sideways scrolling, and saves each screenshot', async () => {
    const contexts = new Map<string, Promise<BrowserContext>>();
    const contextFor = (as: ScreenCase['as'], language: Language) => {
      const key = `${as}-${language}`;
      if (!contexts.has(key)) {
        contexts.set(
          key,
          browser.newContext({ viewport: SIZES[0], locale: language }).then(async (context) => {
            await prepareContext(context, as === null ? null : people[as], language);
            return context;
          }),
        );
      }
      return contexts.get(key)!;
    };

    // QUALITY_SCREENS=table,lobby and QUALITY_LANGUAGES=ja narrow a run while working on a screen.
    const only = (list: string | undefined) => (list ? new Set(list.split(',')) : null);
    const onlyScreens = only(process.env.QUALITY_SCREENS);
    const onlyLanguages = only(process.env.QUALITY_LANGUAGES);
    const chosen = screens.filter((s) => !onlyScreens || onlyScreens.has(s.name));
    const languages = LANGUAGES.filter((l) => !onlyLanguages || onlyLanguages.has(l));
    const jobs = chosen.flatMap((screen) => languages.map((language) => ({ screen, language })));
    const expected = jobs.length * SWEEP_SIZES.length;
    const problems: string[] = [];
    const started = Date.now();
    let shots = 0;
    const work = async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) {
        const { screen, language } = job;
        const page = await (await contextFor(screen.as, language)).newPage();
        try {
          const opening = Date.now();
          await openScreen(page, t.baseUrl, screen, language);
          const opened = Date.now();
          let axeTime = 0;
          for (const size of SWEEP_SIZES) {
            const where = `${screen.name} ${size.name} ${language}`;
            await page.setViewportSize({ width: size.width, height: size.height });
            await settle(page);
            const wide = await overflow(page);
            if (wide.excess > 0) problems.push(`${where}: ${wide.excess}px of sideways scrolling (${wide.widest.join(', ')})`);
            const axeStart = Date.now();
            for (const line of await axeProblems(page)) problems.push(`${where}: ${line}`);
            axeTime += Date.now() - axeStart;
            await page.screenshot({ path: join(SCREENSHOTS, `${screen.name}-${size.name}-${language}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
            shots++;
          }
          if (process.env.QUALITY_TIMES) console.log(`${screen.name} ${language}: opened in ${opened - opening} ms, checked in ${Date.now() - opened} ms (axe ${axeTime} ms)`);
        } catch (error) {
          const text = (await page.evaluate('document.body.innerText').catch(() => '')) as string;
          problems.push(`${screen.name} ${language}: did not load: ${(error as Error).message.split('\n')[0]}\n${text.slice(0, 400)}`);
        } finally {
          await page.close();
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, work));
    await Promise.all([...contexts.values()].map(async (c) => (await c).close()));
    console.log(`quality: ${chosen.length} screens × ${languages.length} languages × ${SWEEP_SIZES.length} sizes, ${shots} screenshots in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(problems).toEqual([]);
    expect(shots).toBe(expected);
  }, 900_000);
});
