// Driving the web client's table like a player: wait until the page shows the game's current
// version, then click a legal card, contract, bid or trump (the page's own highlighted ones).
import { apply, deal, makeRules, moveFromJson, newGame, parseCard, view, type Card } from '@mizerka/rules';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from '../app.js';
import { cardsOnPage } from './browser.js';

export interface ServerTurn {
  version: number;
  over: boolean;
  toMove: number | null;
  deal: number;
  phase: string;
  legal: { kind: string; maxDiscards: number | null; count: number | null } | null;
}

type Gql = TestApp['gql'];

/** The game as the server has it now, with the legal moves of the seat to move (`tokens` by seat). */
export async function serverTurn(gql: Gql, gameId: string, tokens: readonly string[], mySeat = 0): Promise<ServerTurn> {
  const ask = async (token: string) => {
    const result = await gql<any>(
      'query($id: ID!) { game(id: $id) { version view { toMove over deal phase legalMoves { kind seat maxDiscards count } } } }',
      { id: gameId },
      token,
    );
    if (!result.data) throw new Error(`game query failed: ${JSON.stringify(result.errors)}`);
    const g = result.data.game;
    return { version: g.version, over: g.view.over, toMove: g.view.toMove, deal: g.view.deal, phase: g.view.phase as string, legal: g.view.legalMoves };
  };
  const seen = await ask(tokens[mySeat]);
  if (seen.over || seen.toMove === null || seen.toMove === mySeat || !tokens[seen.toMove]) return seen;
  // Only the seat to move is offered its moves; what a card play needs is the page's own.
  if (seen.phase === 'play') return { ...seen, legal: { kind: 'play', maxDiscards: null, count: null } };
  return ask(tokens[seen.toMove]);
}

export function tableAt(page: Page, version: number, timeout = 15_000) {
  return page.waitForSelector(`.table[data-version="${version}"]`, { timeout });
}

/** One move by clicking, on a page that shows `turn.version` with its seat to move. */
export async function clickMove(page: Page, turn: ServerTurn, chance: (n: number) => number) {
  const kind = turn.legal?.kind;
  if (kind === 'contract' || kind === 'bid' || kind === 'trump') {
    const choices = page.locator('button.choice.legal');
    await choices.nth(chance(await choices.count())).click();
  } else if (kind === 'exchange' || kind === 'discard') {
    const cards = page.locator('.hand button.card.legal');
    const n = await cards.count();
    const take = kind === 'discard' ? (turn.legal?.count ?? 2) : Math.min(turn.legal?.maxDiscards ?? 0, n, chance(3));
    for (let i = 0; i < take; i++) await cards.nth(i * 2 < n ? i * 2 : i).click();
    await page.locator('.dock button.confirm').click();
  } else {
    const cards = page.locator('.hand button.card.legal');
    // force: a real click at the card, without waiting for its lift (transform) to count as stable.
    await cards.nth(chance(await cards.count())).click({ force: true });
  }
  // The page fetches the table again after its own move.
  try {
    await page.waitForSelector(`.table:not([data-version="${turn.version}"])`, { timeout: 15_000 });
  } catch (error) {
    const text = (await page.evaluate('document.body.innerText')) as string;
    throw new Error(`no new version after a ${kind} move\n--- the page:\n${text}`, { cause: error });
  }
}

/** A signed-up browser player. */
export interface BrowserPlayer {
  name: string;
  context: BrowserContext;
  page: Page;
  token: string;
  /** GraphQL response bodies and WebSocket frames received by the page, while recording. */
  traffic: string[];
  /** (version shown, cards named) of the page at moments during the game. */
  snapshots: { version: number; cards: Set<string> }[];
}

export function recordTraffic(player: Pick<BrowserPlayer, 'page' | 'traffic'>, recording: () => boolean) {
  player.page.on('response', (response) => {
    if (!recording() || !response.url().endsWith('/graphql')) return;
    response.text().then(
      (body) => recording() && player.traffic.push(body),
      () => undefined,
    );
  });
  player.page.on('websocket', (socket) => {
    socket.on('framereceived', (frame) => {
      if (recording()) player.traffic.push(String(frame.payload));
    });
  });
}

export async function snapshot(page: Page): Promise<{ version: number; cards: Set<string> }> {
  const version = Number(await page.locator('.table').getAttribute('data-version'));
  return { version, cards: await cardsOnPage(page) };
}

export function seededChance(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return n <= 1 ? 0 : s % n;
  };
}

/**
 * From a finished game's record: for each version of the game and each seat, the cards that seat
 * may know then: its own cards this deal so far (hand, draws, discards), the cards played this
 * deal, and the last trick of the deal before. Anything else is another seat's or the talon's.
 */
export function knowledgeByVersion(record: any): Map<number, Set<string>[]> {
  const options = Object.fromEntries(Object.entries(record.rules.options ?? {}).filter(([, v]) => v !== null));
  const rules = makeRules(record.rules.preset, options);
  if (!rules.ok) throw new Error(rules.error.message);
  const seats = record.players.length;
  let state = newGame(rules.value, record.firstDealer);
  const byVersion = new Map<number, Set<string>[]>();
  let version = 0;
  let previousLast: string[] = [];
  for (const dealRecord of record.deals) {
    const dealt = deal(state, dealRecord.deck.map((name: string) => parseCard(name) as Card));
    if (!dealt.ok) throw new Error(dealt.error.message);
    state = dealt.value;
    const own = Array.from({ length: seats }, () => new Set<string>());
    const played = new Set<string>();
    const note = () => {
      for (let seat = 0; seat < seats; seat++) {
        const v = view(state, seat);
        for (const card of [...(v.hand ?? []), ...(v.discards ?? [])]) own[seat].add(card);
      }
      version++;
      byVersion.set(
        version,
        own.map((mine) => new Set([...mine, ...played, ...previousLast])),
      );
    };
    note();
    for (const recorded of dealRecord.moves) {
      const move = moveFromJson(Object.fromEntries(Object.entries(recorded).filter(([, v]) => v !== null)));
      if (!move.ok) throw new Error(move.error.message);
      const next = apply(state, move.value);
      if (!next.ok) throw new Error(next.error.message);
      state = next.value.state;
      if (recorded.play) played.add(recorded.play);
      note();
    }
    previousLast = view(state, null).lastTrick?.cards.map((c) => c.card) ?? [];
  }
  return byVersion;
}

const CARD_IN_JSON = /"([2-9TJQKA][CDHS])"/g;

/** No snapshot and no response of a seat's page holds a card the seat may not know at that version. */
export function expectNoForeignCards(player: BrowserPlayer, seat: number, knowledge: Map<number, Set<string>[]>) {
  expect(player.snapshots.length).toBeGreaterThan(0);
  for (const { version, cards } of player.snapshots) {
    const allowed = knowledge.get(version)?.[seat];
    expect(allowed, `version ${version} is in the record`).toBeDefined();
    const foreign = [...cards].filter((card) => !allowed!.has(card));
    expect(foreign, `${player.name}'s page at version ${version} shows another seat's cards`).toEqual([]);
  }
  let gameResponses = 0;
  for (const body of player.traffic) {
    const cards = [...body.matchAll(CARD_IN_JSON)].map((m) => m[1]);
    if (cards.length === 0) continue;
    // Only a game view carries cards, and it names its version.
    const version = Number(/"version":(\d+)/.exec(body)?.[1]);
    expect(Number.isInteger(version), `a response with cards but no game version: ${body.slice(0, 200)}`).toBe(true);
    const allowed = knowledge.get(version)?.[seat];
    expect(allowed, `version ${version} is in the record`).toBeDefined();
    const foreign = cards.filter((card) => !allowed!.has(card));
    expect(foreign, `${player.name} received another seat's cards at version ${version}`).toEqual([]);
    gameResponses++;
  }
  expect(gameResponses).toBeGreaterThan(0);
}
