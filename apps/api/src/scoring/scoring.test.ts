import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { GamesService } from '../games/games.service.js';
import { cardNamesIn, pickMove, players, rng, startGame, type LegalMovesView, type TestPlayer } from '../games/games.test-kit.js';
import { MovesService } from '../moves/moves.service.js';
import { placesOf } from '@mizerka/rules';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const SHEET = `query($id: ID!) { scoreSheet(gameId: $id) {
  gameId status standings { seat playerId name total place }
  deals { index dealer seedHash contract declarer bid trump finished tricksTaken scores runningTotals
          tricks { index leader cards winner } } } }`;

/** Plays `moves` moves (or to the end) through the services, choosing among the legal moves offered. */
async function play(seated: TestPlayer[], gameId: string, seed: number, moves = Infinity): Promise<string[]> {
  const games = t.app.get(GamesService);
  const movesService = t.app.get(MovesService);
  const who = (p: TestPlayer): AuthenticatedPlayer => ({ id: p.id, name: p.name, tokenId: 'test', sessionId: null, scopes: ['admin'], expiresAt: null });
  const random = rng(seed);
  const cardsPlayed: string[] = [];
  for (let i = 0; i < moves; i++) {
    const spectator = await games.view(gameId, undefined);
    if (spectator.status === 'finished') break;
    const mover = seated[spectator.view.toMove!];
    const { view } = await games.view(gameId, who(mover));
    const move = pickMove(view.legalMoves as LegalMovesView, random);
    await movesService.makeMove(who(mover), gameId, move as never);
    if (move.kind === 'play') cardsPlayed.push(move.card as string);
  }
  return cardsPlayed;
}

describe('places', () => {
  it('ranks by total, ties sharing a place and skipping the next', () => {
    expect(placesOf([3, 3, -6])).toEqual([1, 1, 3]);
    expect(placesOf([-1, 5, 5, 2])).toEqual([4, 1, 1, 3]);
    expect(placesOf([0, 0, 0])).toEqual([1, 1, 1]);
    expect(placesOf([7, -2, -5])).toEqual([1, 2, 3]);
  });
});

describe('the score sheet', () => {
  it('gives each deal of a finished game its tricks, scores and running totals, and the final standings', async () => {
    const seated = await players(t, 3, 'f');
    const id = await startGame(t, seated, 'bidding', { target: 20 });
    await play(seated, id, 5);
    const answer = await t.gql(SHEET, { id });
    expect(answer.errors).toBeUndefined();
    const sheet = answer.data!.scoreSheet;
    expect(sheet.status).toBe('finished');
    const running = [0, 0, 0];
    for (const deal of sheet.deals) {
      expect(deal.finished).toBe(true);
      expect(deal.declarer).not.toBeNull();
      expect(deal.tricks).toHaveLength(10);
      expect(deal.tricks.map((x: { index: number }) => x.index)).toEqual([...Array(10).keys()]);
      const taken = [0, 0, 0];
      for (const trick of deal.tricks) {
        expect(trick.cards).toHaveLength(3);
        taken[trick.winner]++;
      }
      // The talon discards count as cards taken, not tricks; the trick rows alone give the counts.
      expect(deal.tricksTaken).toEqual(taken);
      deal.scores.forEach((s: number, seat: number) => (running[seat] += s));
      expect(deal.runningTotals).toEqual(running);
    }
    expect(sheet.standings.map((p: { total: number }) => p.total)).toEqual(running);
    expect(sheet.standings.map((p: { place: number }) => p.place)).toEqual(placesOf(running));
    expect(Math.max(...running)).toBeGreaterThanOrEqual(20);

    const rest = await t.rest('GET', `/api/v1/games/${id}/deals`);
    expect(rest.status).toBe(200);
    expect(rest.body.deals.map((d: { runningTotals: number[] }) => d.runningTotals)).toEqual(
      sheet.deals.map((d: { runningTotals: number[] }) => d.runningTotals),
    );
  }, 60_000);

  it('shows of a deal in progress only the tricks taken, whose cards are public', async () => {
    const seated = await players(t, 3, 'i');
    const id = await startGame(t, seated, 'short');
    const played = await play(seated, id, 9, 1 + 3 + 8); // contract, three exchanges, two tricks and two cards
    const sheet = (await t.gql(SHEET, { id })).data!.scoreSheet;
    expect(sheet.status).toBe('active');
    expect(sheet.deals).toHaveLength(1);
    const [deal] = sheet.deals;
    expect(deal).toMatchObject({ index: 0, finished: false, scores: null, tricksTaken: null, runningTotals: null });
    expect(deal.tricks).toHaveLength(2);
    expect(deal.tricks.flatMap((x: { cards: string[] }) => x.cards)).toEqual(played.slice(0, 6));
    expect([...cardNamesIn(sheet)].every((c) => played.includes(c))).toBe(true);
    expect(JSON.stringify(sheet)).not.toMatch(/seed"/);
    expect(sheet.standings.every((p: { total: number; place: number }) => p.total === 0 && p.place === 1)).toBe(true);
    expect((await t.rest('GET', '/api/v1/games/00000000-0000-4000-8000-000000000000/deals')).status).toBe(404);
  }, 60_000);
});
