// Issue 5, "Tests": complete games of every preset, played by registered clients through the
// public API only (lobby over GraphQL, every move through makeMove with the mover's own token,
// chosen at random among the legal moves the API's own view offers), then checked against the
// rules library: the record replays to the API's standings, every deal's tricks and scores match,
// and the seeds revealed at the end hash to the published seedHash and reproduce the decks.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cardName,
  makeRules,
  parseRecord,
  replay,
  shuffledDeck,
  type DealOutcome,
  type Outcome,
} from '@mizerka/rules';
import { startTestApp, type TestApp } from '../app.js';
import {
  data,
  GAME_QUERY,
  http,
  playGame,
  PRESET_PLAYERS,
  RECORD_QUERY,
  recordMoveOf,
  registerMany,
  restEventLog,
  SCORE_SHEET_QUERY,
  seatTable,
  withoutNulls,
  type Http,
  type PlayedMove,
} from './clients.js';

let t: TestApp;
let h: Http;
beforeAll(async () => {
  t = await startTestApp();
  h = http(t.baseUrl);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** E2E_SEED=<n> replays every game with other random choices; failures print the seed used. */
const BASE_SEED = Number(process.env.E2E_SEED ?? 20_250_501);

interface Case {
  name: string;
  preset: string;
  options: Record<string, unknown>;
  seed: number;
}

const CASES: Case[] = [
  { name: 'classic', preset: 'classic', options: {}, seed: BASE_SEED + 1 },
  { name: 'classic-4', preset: 'classic-4', options: {}, seed: BASE_SEED + 2 },
  { name: 'short', preset: 'short', options: {}, seed: BASE_SEED + 3 },
  { name: 'short-4', preset: 'short-4', options: {}, seed: BASE_SEED + 4 },
  { name: 'short with mizerkaQuotas "same"', preset: 'short', options: { mizerkaQuotas: 'same' }, seed: BASE_SEED + 5 },
  { name: 'bidding (target 40)', preset: 'bidding', options: { target: 40 }, seed: BASE_SEED + 6 },
  { name: 'bidding-4 (target 40)', preset: 'bidding-4', options: { target: 40 }, seed: BASE_SEED + 7 },
  { name: 'bidding with doubleMisere (target 60)', preset: 'bidding', options: { target: 60, doubleMisere: true }, seed: BASE_SEED + 8 },
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const gqlBid = (bid: string | null | undefined) => (bid === 'double-misere' ? 'double_misere' : (bid ?? null));

/** Places from totals: ties share, the next place skips (1, 1, 3). */
function placesOf(totals: number[]): number[] {
  return totals.map((total) => 1 + totals.filter((other) => other > total).length);
}


/** The finished game of one case above (the first bidding one), for the event-log test below. */
let finishedGame: { gameId: string; token: string; played: PlayedMove[] } | null = null;

describe.concurrent('complete games through the API', () => {
  for (const c of CASES) {
    it(`${c.name}: played to the end, replays to the same standings (seed ${c.seed})`, async () => {
      const started = Date.now();
      const n = PRESET_PLAYERS[c.preset];
      const players = await registerMany(h, n, 'fg');
      const { gameId } = await seatTable(h, players, c.preset, c.options);

      const { played, seedHashes, earlySeeds } = await playGame(h, players, gameId, { seed: c.seed });

      // --- the game is over, as everyone sees it
      expect(played.at(-1)?.result.status).toBe('finished');
      expect(earlySeeds, 'no seed is revealed while the game is played').toEqual([]);
      const game = data(await t.gql(GAME_QUERY, { id: gameId }), 'game');
      expect(game.status).toBe('finished');
      expect(game.finishedAt).not.toBeNull();
      expect(game.view.over).toBe(true);
      expect(game.view.phase).toBe('over');
      expect(game.view.toMove).toBeNull();
      expect(game.preset).toBe(c.preset);

      // The versions: one per move, plus one per deal dealt (the first is version 1).
      const versions = played.map((m) => m.result.version);
      for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]);
      expect(game.version).toBe(played.length + game.deals.length);

      // --- the record, over GraphQL and REST
      const gqlRecord = data(await t.gql(RECORD_QUERY, { id: gameId }), 'gameRecord');
      const restRecord = await t.rest('GET', `/api/v1/games/${gameId}/record`);
      expect(restRecord.status).toBe(200);
      expect(restRecord.body.format).toBe('mizerka-record/1');
      expect(withoutNulls(gqlRecord)).toEqual(withoutNulls(restRecord.body));
      expect(gqlRecord.format).toBe('mizerka-record/1');
      expect(gqlRecord.players).toEqual(players.map((p) => p.name));
      expect(gqlRecord.firstDealer).toBe(game.firstDealer);

      // REST returns the very document: it parses as it is.
      const parsed = parseRecord(restRecord.body);
      if (!parsed.ok) throw new Error(`record does not parse: ${JSON.stringify(parsed.error)}`);
      const parsedGql = parseRecord(withoutNulls(gqlRecord));
      if (!parsedGql.ok) throw new Error(`GraphQL record does not parse: ${JSON.stringify(parsedGql.error)}`);
      const replayed = replay(parsed.value);
      if (!replayed.ok) throw new Error(`record does not replay: ${JSON.stringify(replayed.error)}`);
      const out: Outcome = replayed.value.outcome;

      // The record holds exactly the moves we made, in order.
      const recordMoves = parsed.value.deals.flatMap((d) => d.moves);
      expect(recordMoves).toEqual(played.map((m) => recordMoveOf(m.seat, m.input)));
      const perDeal = parsed.value.deals.map((d) => d.moves.length);
      expect(perDeal).toEqual(parsed.value.deals.map((_, i) => played.filter((m) => m.deal === i).length));

      // --- outcome = API standings
      expect(out.finished).toBe(true);
      const sheet = data(await t.gql(SCORE_SHEET_QUERY, { id: gameId }), 'scoreSheet');
      expect(sheet.status).toBe('finished');
      expect(sheet.standings.map((s: any) => s.total)).toEqual(out.totals);
      expect(game.players.map((p: any) => p.total)).toEqual(out.totals);
      expect(game.view.totals).toEqual(out.totals);
      expect([...game.winners].sort()).toEqual([...out.winners].sort());
      expect([...game.view.winners].sort()).toEqual([...out.winners].sort());
      const places = placesOf(out.totals);
      expect(sheet.standings.map((s: any) => s.place)).toEqual(places);
      expect(game.players.map((p: any) => p.place)).toEqual(places);
      expect(out.winners.every((w) => places[w] === 1)).toBe(true);
      expect(sheet.standings.map((s: any) => s.playerId)).toEqual(players.map((p) => p.id));

      // The game ended when the rules say so.
      const rules = makeRules(c.preset, c.options);
      if (!rules.ok) throw new Error('rules');
      if (rules.value.family === 'contract') {
        expect(out.deals.length).toBe(rules.value.deals);
      } else {
        const target = rules.value.target;
        const running = out.deals.map((_, i) =>
          out.deals.slice(0, i + 1).reduce((acc, d) => acc.map((x, s) => x + d.scores![s]), new Array(n).fill(0)),
        );
        expect(running.at(-1)!.some((x) => x >= target)).toBe(true);
        for (const r of running.slice(0, -1)) expect(r.every((x) => x < target)).toBe(true);
      }

      // --- every deal: the deal history equals the outcome
      expect(sheet.deals.length).toBe(out.deals.length);
      expect(game.deals.length).toBe(out.deals.length);
      expect(parsed.value.deals.length).toBe(out.deals.length);
      const running = new Array(n).fill(0);
      for (let i = 0; i < out.deals.length; i++) {
        const expected: DealOutcome = out.deals[i];
        const history = sheet.deals[i];
        const info = game.deals[i];
        expect(history.index).toBe(i);
        expect(history.finished).toBe(true);
        expect(history.dealer).toBe(expected.dealer);
        expect(info.dealer).toBe(expected.dealer);
        expect(history.tricksTaken).toEqual(expected.tricks);
        expect(history.scores).toEqual(expected.scores);
        expect(info.tricks).toEqual(expected.tricks);
        expect(info.scores).toEqual(expected.scores);
        expected.scores!.forEach((s, seat) => (running[seat] += s));
        expect(history.runningTotals).toEqual(running);
        if ('contract' in expected) {
          expect(history.contract).toBe(expected.contract);
          expect(info.contract).toBe(expected.contract);
          expect(expected.scores!.reduce((a, b) => a + b, 0)).toBe(0); // zero-sum
        } else {
          expect(history.declarer).toBe(expected.declarer);
          expect(history.bid).toBe(gqlBid(expected.bid));
          expect(history.trump).toBe(expected.trump);
          expect(info.declarer).toBe(expected.declarer);
          expect(info.bid).toBe(gqlBid(expected.bid));
        }

        // The tricks of the history are the record's plays, in order, with consistent winners.
        const plays = parsed.value.deals[i].moves.filter((m) => m.play !== undefined);
        const active = expected.tricks.filter((x) => x !== null).length;
        expect(history.tricks.length * active).toBe(plays.length);
        const taken: (number | null)[] = expected.tricks.map((x) => (x === null ? null : 0));
        history.tricks.forEach((trick: any, k: number) => {
          const chunk = plays.slice(k * active, (k + 1) * active);
          expect(trick.index).toBe(k);
          expect(trick.cards).toEqual(chunk.map((m) => m.play));
          expect(trick.leader).toBe(chunk[0].seat);
          if (k + 1 < history.tricks.length) expect(history.tricks[k + 1].leader).toBe(trick.winner);
          taken[trick.winner] = (taken[trick.winner] ?? 0) + 1;
        });
        expect(taken).toEqual(expected.tricks);

        // --- seeds: revealed now, hash to what was published at the deal's start, give the deck
        expect(info.seed).toMatch(/^[0-9a-f]{32}$/);
        expect(seedHashes.get(i), `deal ${i} was seen while it was played`).toBeDefined();
        expect(info.seedHash).toBe(seedHashes.get(i));
        expect(history.seedHash).toBe(seedHashes.get(i));
        expect(sha256(info.seed)).toBe(seedHashes.get(i));
        expect(shuffledDeck(rules.value, info.seed).map(cardName)).toEqual(parsed.value.deals[i].deck);
      }

      // The event log holds every move: one entry per version, contiguous from 1 (REST here; the
      // GraphQL gameEvents query has a test of its own below).
      const log = await restEventLog(h, gameId);
      expect(log.version).toBe(game.version);
      expect(log.entries.map((e: any) => e.seq)).toEqual(Array.from({ length: game.version }, (_, i) => i + 1));
      expect(log.entries.filter((e: any) => e.kind !== 'deal').map((e: any) => e.seat)).toEqual(played.map((m) => m.seat));

      if (c === CASES.find((x) => x.preset === 'bidding')) finishedGame = { gameId, token: players[0].token, played };
      console.info(`[full-games] ${c.name}: ${out.deals.length} deals, ${played.length} moves, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }, 900_000);
  }
});

describe('the event log of a finished game over GraphQL', () => {
  it('gameEvents(gameId, after) lists every entry, contiguous from 1', async () => {
    // A game played above; run alone (-t), this test plays one of its own.
    const { gameId, token, played } = finishedGame ?? (await playOwn());
    const version = played.at(-1)!.result.version;
    // Page after page (at most 100 entries each), `after` the last seq received.
    const entries: any[] = [];
    let log: any;
    do {
      const result = await t.gql(
        'query($id: ID!, $after: Int!) { gameEvents(gameId: $id, after: $after) { gameId version hasMore entries { seq kind seat dealIndex } } }',
        { id: gameId, after: entries.at(-1)?.seq ?? 0 },
        token,
      );
      expect(result.errors).toBeUndefined();
      log = result.data!.gameEvents;
      expect(log.entries.length).toBeLessThanOrEqual(100);
      entries.push(...log.entries);
    } while (log.hasMore);
    expect(log.version).toBe(version);
    expect(entries.map((e: any) => e.seq)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    expect(entries.filter((e: any) => e.kind !== 'deal').map((e: any) => e.seat)).toEqual(played.map((m) => m.seat));
    // Paging with `after` and `first` gives the same entries.
    const page = await t.gql('query($id: ID!) { gameEvents(gameId: $id, after: 2, first: 3) { hasMore entries { seq } } }', { id: gameId });
    expect(page.errors).toBeUndefined();
    expect(page.data!.gameEvents.entries.map((e: any) => e.seq)).toEqual([3, 4, 5]);
    expect(page.data!.gameEvents.hasMore).toBe(true);
  }, 300_000);

  async function playOwn() {
    const players = await registerMany(h, 3, 'fl');
    const { gameId } = await seatTable(h, players, 'bidding', { target: 20 });
    const { played } = await playGame(h, players, gameId, { seed: BASE_SEED + 99 });
    return { gameId, token: players[0].token, played };
  }
});
