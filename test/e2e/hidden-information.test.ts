// Issue 5, "Tests": no response tells anyone a card they may not know. Games of a contract and a
// bidding preset are played move by move; at every phase (contract pause, exchange, bidding,
// discard, trump, play, between deals, finished) the game view, the event log, the deal history
// and the lobby are fetched as every seat, as a spectator and without a token, over GraphQL and
// REST, and every move result and refused move is kept. After the end the record tells the truth
// (every deck and move), from which this file derives, independently of the server and of the
// rules library, what each seat knew at each version; then every response is scanned.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../apps/api/src/app.js';
import { loadConfig } from '../../apps/api/src/config/app-config.js';
import { createTestDatabase } from '../database.js';
import {
  chooseMove,
  data,
  EVENTS_QUERY,
  GAME_QUERY,
  http,
  LOBBY_FIELDS,
  MAKE_MOVE,
  quotedCards,
  cardWords,
  registerMany,
  register,
  restEventLog,
  rng,
  SCORE_SHEET_QUERY,
  seatTable,
  turnOf,
  type Http,
  type Player,
} from './clients.js';

// ---------------------------------------------------------------------------------------------
// The app, with its log written to a buffer

let app: Awaited<ReturnType<typeof createApp>>;
let h: Http;
const logLines: string[] = [];

beforeAll(async () => {
  const url = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'trace', RATE_LIMIT_PER_MINUTE: '1000000', REGISTRATIONS_PER_IP_PER_HOUR: '1000000', WS_MAX_SOCKETS_PER_IP: '100000' });
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk));
      callback();
    },
  });
  // The same redaction as the real logger (createPino), at the most verbose level.
  const logger = pino(
    {
      level: 'trace',
      base: undefined,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'token', '*.token'], censor: '[redacted]' },
    },
    sink,
  );
  app = await createApp(config, url, logger);
  await app.listen(0, '127.0.0.1');
  h = http((await app.getUrl()).replace('[::1]', '127.0.0.1'));
}, 120_000);
afterAll(async () => {
  await app?.close();
});

// ---------------------------------------------------------------------------------------------
// What each seat may know: derived from the record (decks and moves) and the log's seqs

type Knowledge = { seats: Set<string>[]; public: Set<string> };
interface Step {
  seq: number;
  k: Knowledge;
}

function clone(k: Knowledge): Knowledge {
  return { seats: k.seats.map((s) => new Set(s)), public: new Set(k.public) };
}

const BID_RANK: Record<string, number> = { pass: 0, play: 1, misere: 2, 'double-misere': 3 };

/**
 * For each deal, the knowledge after each log entry of that deal. Contract: 6 rounds of
 * (left of dealer … dealer, talon), the pause, then rounds until the hands are full, the rest to
 * the talon; an exchange of k draws the next k talon cards. Bidding: 10 rounds over the three
 * active seats from the dealer's left, 2 to the talon, taken by a play/misere declarer after the
 * last bid. A played card is public.
 */
function knowledgeTimeline(record: any, entries: any[], players: number): Step[][] {
  const family = record.rules.preset.startsWith('bidding') ? 'bidding' : 'contract';
  return record.deals.map((deal: any, d: number) => {
    const mine = entries.filter((e) => e.dealIndex === d);
    const dealEntry = mine.find((e) => e.kind === 'deal');
    const moveEntries = mine.filter((e) => e.kind !== 'deal');
    expect(moveEntries.length).toBe(deal.moves.length);
    const dealer = (record.firstDealer + d) % players;
    const deck: string[] = deal.deck;
    const k: Knowledge = { seats: Array.from({ length: players }, () => new Set<string>()), public: new Set() };
    const steps: Step[] = [];
    const hands: string[][] = Array.from({ length: players }, () => []);
    const talon: string[] = [];
    if (family === 'contract') {
      const handSize = players === 3 ? 13 : 10;
      const piles = [...Array.from({ length: players }, (_, i) => (dealer + 1 + i) % players), -1];
      deck.forEach((card, i) => {
        const round = Math.floor(i / (players + 1));
        const pile = round < handSize ? piles[i % (players + 1)] : -1;
        if (pile === -1) talon.push(card);
        else hands[pile].push(card);
      });
      hands.forEach((hand, s) => hand.slice(0, 6).forEach((c) => k.seats[s].add(c)));
    } else {
      const active = players === 3 ? [1, 2, 0].map((x) => (dealer + x) % 3) : [1, 2, 3].map((x) => (dealer + x) % 4);
      deck.forEach((card, i) => (i < 30 ? hands[active[i % 3]].push(card) : talon.push(card)));
      hands.forEach((hand, s) => hand.forEach((c) => k.seats[s].add(c)));
    }
    steps.push({ seq: dealEntry.seq, k: clone(k) });
    let talonPos = 0;
    const bids: { seat: number; bid: string }[] = [];
    deal.moves.forEach((m: any, i: number) => {
      if (m.contract !== undefined) hands.forEach((hand, s) => hand.forEach((c) => k.seats[s].add(c)));
      if (m.exchange !== undefined) {
        for (const c of talon.slice(talonPos, talonPos + m.exchange.length)) k.seats[m.seat].add(c);
        talonPos += m.exchange.length;
      }
      if (m.bid !== undefined) {
        bids.push({ seat: m.seat, bid: m.bid });
        if (bids.length === 3) {
          const best = bids.reduce((a, b) => (BID_RANK[b.bid] > BID_RANK[a.bid] ? b : a));
          const declarer = best.bid === 'pass' ? bids[2].seat : best.seat;
          const bid = best.bid === 'pass' ? 'play' : best.bid;
          if (bid === 'play' || bid === 'misere') talon.forEach((c) => k.seats[declarer].add(c));
        }
      }
      if (m.play !== undefined) k.public.add(m.play);
      steps.push({ seq: moveEntries[i].seq, k: clone(k) });
    });
    return steps;
  });
}

function knowledgeAt(timeline: Step[][], deal: number, version: number): Knowledge {
  const steps = timeline[deal];
  if (!steps) throw new Error(`no deal ${deal}`);
  let found: Knowledge | null = null;
  for (const step of steps) if (step.seq <= version) found = step.k;
  if (!found) throw new Error(`deal ${deal} not dealt at version ${version}`);
  return found;
}

function allowed(k: Knowledge, viewer: number | null): Set<string> {
  return viewer === null ? k.public : new Set([...k.public, ...k.seats[viewer]]);
}

// ---------------------------------------------------------------------------------------------
// Capturing responses

type Viewer = number | null; // seat, or null for a spectator / no token
interface Captured {
  what: string;
  viewer: Viewer;
  /** The game version when the response was made. */
  version: number;
  finished: boolean;
  body: any;
}

interface Table {
  gameId: string;
  lobbyId: string;
  players: Player[];
  spectator: Player;
  captured: Captured[];
  /** Free-text error messages a seat received for refused moves, with the cards it named. */
  errors: { viewer: number; version: number; deal: number; message: string; named: string[]; rule: unknown; where: string }[];
  phases: Set<string>;
}

const LOBBY_QUERY = `query($id: ID!) { lobby(id: $id) { ${LOBBY_FIELDS} } }`;

async function snapshot(t: Table, version: number, finished: boolean, full: boolean, eventsAfter = 0) {
  const who: { viewer: Viewer; token: string | null; label: string }[] = [
    ...t.players.map((p, seat) => ({ viewer: seat as Viewer, token: p.token, label: `seat ${seat}` })),
    { viewer: null, token: t.spectator.token, label: 'spectator' },
    { viewer: null, token: null, label: 'no token' },
  ];
  await Promise.all(
    who.map(async ({ viewer, token, label }) => {
      const keep = (what: string, body: any) => t.captured.push({ what: `${what} as ${label}`, viewer, version, finished, body });
      keep('gql game', data(await h.gql(GAME_QUERY, { id: t.gameId }, token), 'game'));
      keep('rest game', (await h.rest('GET', `/api/v1/games/${t.gameId}`, undefined, token)).body);
      if (full) {
        keep('gql events', data(await h.gql(EVENTS_QUERY, { id: t.gameId, after: eventsAfter }, token), 'gameEvents'));
        const rest = await h.rest('GET', `/api/v1/games/${t.gameId}/events?after=${eventsAfter}`, undefined, token);
        expect(rest.status).toBe(200);
        keep('rest events', rest.body);
        keep('gql scoreSheet', data(await h.gql(SCORE_SHEET_QUERY, { id: t.gameId }, token), 'scoreSheet'));
        keep('rest deals', (await h.rest('GET', `/api/v1/games/${t.gameId}/deals`, undefined, token)).body);
        keep('gql lobby', data(await h.gql(LOBBY_QUERY, { id: t.lobbyId }, token), 'lobby'));
        keep('rest lobby', (await h.rest('GET', `/api/v1/lobbies/${t.lobbyId}`, undefined, token)).body);
        if (viewer !== null) {
          keep('gql myGames', data(await h.gql('query { myGames { items { id mySeat myTurn toMove version } } }', {}, token), 'myGames'));
        }
      }
    }),
  );
}

/**
 * Refused moves by the seat to move that name cards it may not know (another seat's card, a
 * talon card, …): the answers are kept for the scan; the game must not change.
 */
async function probeErrors(t: Table, seat: number, version: number, deal: number, phase: string, kind: string, hand: string[]) {
  const everyCard = [...'23456789TJQKA'].flatMap((r) => [...'CDHS'].map((s) => r + s));
  const others = everyCard.filter((c) => !hand.includes(c));
  const probes: Record<string, unknown>[] = [];
  if (kind === 'play') probes.push({ kind: 'play', card: others[0] }, { kind: 'play', card: others[others.length - 1] });
  if (kind === 'exchange') probes.push({ kind: 'exchange', discards: [hand[0], others[1]] });
  if (kind === 'discard') probes.push({ kind: 'discard', cards: [hand[0], others[2]] });
  probes.push({ kind: kind === 'play' ? 'exchange' : 'play', ...(kind === 'play' ? { discards: [others[3]] } : { card: others[3] }) });
  for (const probe of probes) {
    const gql = await h.gql(MAKE_MOVE, { input: { gameId: t.gameId, ...probe } }, t.players[seat].token);
    const rest = await h.rest('POST', `/api/v1/games/${t.gameId}/moves`, probe, t.players[seat].token);
    const named = [probe.card, ...((probe.discards as string[]) ?? []), ...((probe.cards as string[]) ?? [])].filter(
      (x): x is string => typeof x === 'string',
    );
    expect(gql.errors?.length, JSON.stringify(gql)).toBe(1);
    expect(rest.status).toBeGreaterThanOrEqual(400);
    expect(rest.status).toBeLessThan(500);
    t.errors.push({ viewer: seat, version, deal, named, message: JSON.stringify(gql.errors), rule: gql.errors![0].extensions?.rule, where: `${phase} gql` });
    t.errors.push({ viewer: seat, version, deal, named, message: rest.text, rule: rest.body?.rule, where: `${phase} rest` });
  }
  // And the seat that is not to move, naming the same cards: NOT_YOUR_TURN, no more.
  const other = (seat + 1) % t.players.length;
  const r = await h.gql(MAKE_MOVE, { input: { gameId: t.gameId, kind: 'play', card: others[0] } }, t.players[other].token);
  t.errors.push({ viewer: other, version, deal, named: [others[0]], message: JSON.stringify(r.errors), rule: null, where: `${phase} not-your-turn` });
}

/** Plays the table's game to the end, capturing as it goes. */
async function playAndCapture(t: Table, seed: number, fullEvery: number, prefer: (legal: any) => Record<string, unknown> | null = () => null) {
  const random = rng(seed);
  let seat: number | null = data(await h.gql('query($id: ID!) { game(id: $id) { view { toMove } } }', { id: t.gameId }), 'game').view.toMove;
  let lastPhase = '';
  let lastDeal = -1;
  let moves = 0;
  const dealStart = new Map<number, number>();
  while (seat !== null) {
    const turn = await turnOf(h, t.gameId, t.players[seat]);
    const phaseChanged = turn.phase !== lastPhase || turn.deal !== lastDeal;
    t.phases.add(turn.deal !== lastDeal && lastDeal >= 0 ? 'between deals' : turn.phase);
    t.phases.add(turn.phase);
    // Deal 0: a full snapshot before every move but the plays (there, before every `fullEvery`th)
    // and a lighter one otherwise; deal 1: full at each phase, lighter every 3rd move; later
    // deals: full between deals (the first move of a deal). Every move result is kept anyway.
    const dealChanged = turn.deal !== lastDeal;
    const full =
      dealChanged ||
      (turn.deal === 0 && (turn.phase !== 'play' || moves % fullEvery === 0)) ||
      (turn.deal === 1 && phaseChanged);
    const light = turn.deal === 0 || (turn.deal === 1 && moves % 3 === 0);
    if (!dealStart.has(turn.deal)) dealStart.set(turn.deal, turn.version);
    // Entries of earlier deals were scanned by earlier snapshots: from the previous deal on.
    const eventsAfter = turn.deal === 0 ? 0 : dealStart.get(turn.deal - 1)! - 1;
    if (full || light) await snapshot(t, turn.version, false, full, eventsAfter);
    if (phaseChanged && turn.deal <= 1) {
      const hand: string[] = data(await h.gql(GAME_QUERY, { id: t.gameId }, t.players[seat].token), 'game').view.hand;
      await probeErrors(t, seat, turn.version, turn.deal, turn.phase, turn.legal.kind, hand);
      const after = data(await h.gql('query($id: ID!) { game(id: $id) { version } }', { id: t.gameId }), 'game').version;
      expect(after, 'refused moves change nothing').toBe(turn.version);
    }
    lastPhase = turn.phase;
    lastDeal = turn.deal;
    const move = prefer(turn.legal) ?? chooseMove(turn.legal, random);
    let result: any;
    // Alternate the transports for the moves themselves.
    if (moves % 2 === 0) {
      result = data(await h.gql(MAKE_MOVE, { input: { gameId: t.gameId, expectedVersion: turn.version, ...move } }, t.players[seat].token), 'makeMove');
    } else {
      const body = { expectedVersion: turn.version, ...move, ...(move.bid === 'double_misere' ? { bid: 'double-misere' } : {}) };
      const r = await h.rest('POST', `/api/v1/games/${t.gameId}/moves`, body, t.players[seat].token);
      expect(r.status, r.text).toBe(200);
      result = r.body;
    }
    t.captured.push({ what: `move result (${moves % 2 === 0 ? 'gql' : 'rest'}) of seat ${seat}`, viewer: seat, version: result.version, finished: result.status === 'finished', body: result });
    moves++;
    seat = result.status === 'finished' ? null : result.game.toMove;
  }
  t.phases.add('finished');
  const final = data(await h.gql('query($id: ID!) { game(id: $id) { version status } }', { id: t.gameId }), 'game');
  expect(final.status).toBe('finished');
  await snapshot(t, final.version, true, true);
}

// ---------------------------------------------------------------------------------------------
// Scanning

interface Violation {
  what: string;
  viewer: Viewer;
  version: number;
  deal: number;
  cards: string[];
}

/** Cards in `fragment` that `viewer` may not know in `deal` at `version` (extra: also allowed). */
function leaks(timeline: Step[][], fragment: unknown, viewer: Viewer, deal: number, version: number, extra: Iterable<string> = []): string[] {
  const ok = allowed(knowledgeAt(timeline, deal, version), viewer);
  for (const c of extra) ok.add(c);
  return [...quotedCards(JSON.stringify(fragment))].filter((c) => !ok.has(c));
}

/** Walks one captured response, scoping every part to the deal it is about. */
function scan(timeline: Step[][], seqDeal: Map<number, number>, c: Captured): Violation[] {
  const out: Violation[] = [];
  const check = (part: string, fragment: unknown, deal: number, extra: Iterable<string> = []) => {
    const cards = leaks(timeline, fragment, c.viewer, deal, c.version, extra);
    if (cards.length > 0) out.push({ what: `${c.what}: ${part}`, viewer: c.viewer, version: c.version, deal, cards });
  };
  const seatView = (part: string, view: any) => {
    const { lastTrick, ...rest } = view;
    check(part, rest, view.deal);
    if (lastTrick) {
      // The last trick taken: of this deal, or (between deals) of the one before.
      const inThis = leaks(timeline, lastTrick, c.viewer, view.deal, c.version);
      if (inThis.length > 0) {
        if (view.deal === 0) check(`${part}.lastTrick`, lastTrick, 0);
        else check(`${part}.lastTrick`, lastTrick, view.deal - 1);
      }
    }
  };
  const b = c.body;
  if (c.what.includes('myGames')) {
    check('myGames', b, 0, []);
  } else if (c.what.includes(' game ')) {
    seatView('view', b.view);
    const { view: _view, ...rest } = b;
    check('game (outside the view)', rest, b.view.deal);
  } else if (c.what.includes('events')) {
    for (const entry of b.entries) check(`entry ${entry.seq} (${entry.kind})`, entry, entry.dealIndex);
  } else if (c.what.includes('scoreSheet') || c.what.includes('deals')) {
    for (const deal of b.deals) check(`deal ${deal.index}`, deal, deal.index);
    check('standings', b.standings, 0);
  } else if (c.what.includes('lobby')) {
    const cards = [...quotedCards(JSON.stringify(b))];
    if (cards.length > 0) out.push({ what: c.what, viewer: c.viewer, version: c.version, deal: -1, cards });
  } else if (c.what.startsWith('move result')) {
    for (const event of b.events) {
      const deal = seqDeal.get(event.seq);
      if (deal === undefined) throw new Error(`event of unknown seq ${event.seq}`);
      check(`event ${event.seq} ${event.type}`, event, deal);
    }
    seatView('game', b.game);
  } else {
    throw new Error(`unknown capture ${c.what}`);
  }
  return out;
}

async function verify(t: Table) {
  const record = (await h.rest('GET', `/api/v1/games/${t.gameId}/record`)).body;
  expect(record.format).toBe('mizerka-record/1');
  const log = await restEventLog(h, t.gameId, null);
  const seqDeal = new Map<number, number>(log.entries.map((e: any) => [e.seq, e.dealIndex]));
  const timeline = knowledgeTimeline(record, log.entries, t.players.length);

  // The oracle is not vacuous: at the start nobody may know the talon or the other hands, and
  // scanning the record (everything) as seat 0 at version 1 does find leaks.
  const startK = knowledgeAt(timeline, 0, 1);
  expect(startK.public.size).toBe(0);
  expect(leaks(timeline, record.deals[0].deck, 0, 0, 1).length).toBeGreaterThan(20);

  const violations: Violation[] = [];
  for (const c of t.captured) {
    if (c.finished) continue; // after the end the record is public: every card may be known
    violations.push(...scan(timeline, seqDeal, c));
  }
  expect(violations.slice(0, 10), `${violations.length} responses name cards their reader may not know`).toEqual([]);

  // Refused moves: the message names no card the mover may not know, besides the ones it named.
  const errorLeaks = t.errors
    .map((e) => {
      const ok = allowed(knowledgeAt(timeline, e.deal, e.version), e.viewer);
      e.named.forEach((x) => ok.add(x));
      return { ...e, cards: [...cardWords(e.message)].filter((x) => !ok.has(x)) };
    })
    .filter((e) => e.cards.length > 0);
  expect(errorLeaks.slice(0, 5), 'error messages naming hidden cards').toEqual([]);

  // Seeds: in no response before the end (they hash to the public seedHash, checked elsewhere).
  const game = data(await h.gql(GAME_QUERY, { id: t.gameId }), 'game');
  const seeds: string[] = game.deals.map((d: any) => d.seed);
  expect(seeds.every((s) => /^[0-9a-f]{32}$/.test(s))).toBe(true);
  const early = t.captured.filter((c) => !c.finished && seeds.some((s) => JSON.stringify(c.body).includes(s)));
  expect(early.map((c) => c.what)).toEqual([]);
  const earlyErrors = t.errors.filter((e) => seeds.some((s) => e.message.includes(s)));
  expect(earlyErrors).toEqual([]);
  // No response shows one player's token to anyone.
  const tokens = [...t.players, t.spectator].map((p) => p.token);
  const withToken = t.captured.filter((c) => tokens.some((tok) => JSON.stringify(c.body).includes(tok)));
  expect(withToken.map((c) => c.what)).toEqual([]);
  return { seeds, tokens, record };
}

// ---------------------------------------------------------------------------------------------

const tables: Table[] = [];

async function newTable(preset: string, options: Record<string, unknown>): Promise<Table> {
  const n = preset.endsWith('-4') ? 4 : 3;
  const players = await registerMany(h, n, 'hi');
  const spectator = await register(h, 'hs');
  const { gameId, lobbyId } = await seatTable(h, players, preset, options);
  const t: Table = { gameId, lobbyId, players, spectator, captured: [], errors: [], phases: new Set() };
  tables.push(t);
  return t;
}

describe.concurrent('hidden information', () => {
  it('contract family (short): no response names a card its reader may not know', async () => {
    const t = await newTable('short', {});
    await playAndCapture(t, 501, 3);
    for (const phase of ['contract', 'exchange', 'play', 'between deals', 'finished']) expect(t.phases).toContain(phase);
    const { record } = await verify(t);
    expect(record.deals.length).toBe(9);
  }, 900_000);

  it('bidding family (bidding-4, dealer sits out): no response names a card its reader may not know', async () => {
    const t = await newTable('bidding-4', { target: 20 });
    // Bids: "play" whenever it may be bid (so a declarer names trumps), else pass.
    await playAndCapture(t, 502, 2, (legal) =>
      legal.kind === 'bid' ? { kind: 'bid', bid: legal.bids.includes('play') ? 'play' : 'pass' } : null,
    );
    for (const phase of ['bidding', 'discard', 'trump', 'play', 'finished']) expect(t.phases).toContain(phase);
    await verify(t);
  }, 900_000);

  it('bidding with double misère (3 players): no response names a card its reader may not know', async () => {
    const t = await newTable('bidding', { target: 40, doubleMisere: true });
    await playAndCapture(t, 503, 2);
    for (const phase of ['bidding', 'play', 'finished']) expect(t.phases).toContain(phase);
    await verify(t);
  }, 900_000);
});

describe('refused moves tell nothing about where a hidden card is', () => {
  it('playing a card from another hand, the talon or unknown gives the same answer', async () => {
    const players = await registerMany(h, 3, 'hr');
    const { gameId } = await seatTable(h, players, 'short', {});
    // The chooser chooses; then the chooser exchanges; we probe at the exchange and at the first play.
    const seatOf = async () => data(await h.gql('query($id: ID!) { game(id: $id) { view { toMove phase } version } }', { id: gameId }), 'game');
    let g = await seatOf();
    const chooser = players[g.view.toMove];
    const answers: Record<string, string[]> = {};
    const probe = async (label: string, who: Player, card: string) => {
      const r = await h.gql(MAKE_MOVE, { input: { gameId, kind: 'play', card } }, who.token);
      const rest = await h.rest('POST', `/api/v1/games/${gameId}/moves`, { kind: 'play', card }, who.token);
      const norm = (s: string) => s.replaceAll(card, '<card>');
      (answers[label] ??= []).push(
        norm(JSON.stringify(r.errors?.map((e) => ({ message: e.message, code: e.extensions?.code, rule: e.extensions?.rule })))),
        norm(JSON.stringify({ status: rest.status, code: rest.body.code, detail: rest.body.detail, rule: rest.body.rule })),
      );
    };
    data(await h.gql(MAKE_MOVE, { input: { gameId, kind: 'contract', contract: 'notrumps' } }, chooser.token), 'makeMove');
    // Play on to the first trick.
    const random = rng(77);
    for (;;) {
      g = await seatOf();
      if (g.view.phase === 'play') break;
      const turn = await turnOf(h, gameId, players[g.view.toMove]);
      data(await h.gql(MAKE_MOVE, { input: { gameId, ...chooseMove(turn.legal, random) } }, players[g.view.toMove].token), 'makeMove');
    }
    const mover = players[g.view.toMove];
    const version = g.version;
    const myHand: string[] = data(await h.gql(GAME_QUERY, { id: gameId }, mover.token), 'game').view.hand;
    // The truth is only known at the end; probe every card not in the hand now, classify afterwards.
    const everyCard = [...'23456789TJQKA'].flatMap((r) => [...'CDHS'].map((s) => r + s));
    const probed = everyCard.filter((c) => !myHand.includes(c));
    const perCard = new Map<string, string>();
    for (const card of probed) {
      await probe(card, mover, card);
      perCard.set(card, answers[card].join(' | '));
    }
    expect(data(await h.gql('query($id: ID!) { game(id: $id) { version } }', { id: gameId }), 'game').version).toBe(version);
    // End the game (a resignation) to learn from its record where each probed card was.
    data(await h.gql('mutation($input: ResignInput!) { resign(input: $input) { status } }', { input: { gameId } }, players[0].token), 'resign');
    const record = (await h.rest('GET', `/api/v1/games/${gameId}/record`)).body;
    expect(record.end?.reason).toBe('resigned');
    const log = await restEventLog(h, gameId, null);
    const timeline = knowledgeTimeline(record, log.entries.filter((e) => e.kind !== 'end'), 3);
    const moverSeat = players.indexOf(mover);
    const k = knowledgeAt(timeline, 0, version);
    const hidden = probed.filter((c) => !k.seats[moverSeat].has(c));
    const distinct = new Set(hidden.map((c) => perCard.get(c)));
    expect([...distinct], 'every hidden card gets the same refusal').toHaveLength(1);
    // And the refusal names no card but the one sent.
    for (const c of hidden) expect([...cardWords(perCard.get(c)!)].filter((x) => x !== '<card>')).toEqual([]);
  }, 300_000);
});

describe('the server log', () => {
  it('holds no token, no seed and no card of a hand', async () => {
    expect(tables.length).toBeGreaterThan(0);
    const text = logLines.join('');
    expect(text.length).toBeGreaterThan(0);
    for (const t of tables) {
      for (const p of [...t.players, t.spectator]) expect(text.includes(p.token), `token of ${p.name} in the log`).toBe(false);
      const game = data(await h.gql(GAME_QUERY, { id: t.gameId }), 'game');
      for (const d of game.deals) if (d.seed) expect(text.includes(d.seed), `seed of deal ${d.index} in the log`).toBe(false);
    }
    // Request bodies (moves, with their cards) are not logged: no quoted card name at all.
    expect([...quotedCards(text)]).toEqual([]);
  });
});
