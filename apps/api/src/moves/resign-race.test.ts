import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { pickServerBot } from '../bots/bot-players.js';
import { FAST, waitFor } from '../bots/bots.test-kit.js';
import { startGame } from '../games/games.test-kit.js';
import { moveRetries } from '../metrics/metrics.js';
import { Outbox } from '../outbox/outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { MovesService } from './moves.service.js';

// A resignation without expectedVersion asks for the game's end as it is now: while server bots
// move at full speed (every commit of this instance starts the next bot's turn at once) it may
// lose the version race again and again, and is decided again each time, never answered CONFLICT.
/** Games played; RESIGN_RACE_GAMES=200 DEBUG_RETRIES=1 measures the retries a resignation needs. */
const GAMES = Number(process.env.RESIGN_RACE_GAMES ?? 12);
let t: TestApp;
let prisma: PrismaService;
beforeAll(async () => {
  t = await startTestApp(FAST);
  prisma = t.app.get(PrismaService);
});
afterAll(async () => {
  await t?.close();
});

/** A game of four random server bots, its first turn started at once as a lobby would. */
async function botsOnly(): Promise<{ gameId: string; seats: string[] }> {
  const seats = await prisma.$transaction(async (tx) => {
    const seated: string[] = [];
    for (let i = 0; i < 4; i++) seated.push(await pickServerBot(tx, 'random', seated));
    return seated;
  });
  const gameId = await startGame(t, seats.map((id) => ({ id, name: '', token: '' })), 'bidding-4', { target: 1000 });
  t.app.get(Outbox).committed({ gameId, seq: 1, entries: null });
  return { gameId, seats };
}

async function retries(): Promise<number> {
  return (await moveRetries.get()).values.find((v) => v.labels.actor === 'player')?.value ?? 0;
}

describe('a resignation racing server bots', () => {
  it('is never answered CONFLICT: it is decided again until it is written, once', async () => {
    const moves = t.app.get(MovesService);
    const needed: number[] = [];
    for (let game = 0; game < GAMES; game++) {
      const { gameId, seats } = await botsOnly();
      // Resign while the bots are moving, at a different point of each game.
      const from = 3 + (game % 12) * 4;
      await waitFor(async () => (await prisma.game.findUniqueOrThrow({ where: { id: gameId }, select: { version: true } })).version >= from, 'the bots moving');
      const seat = game % 4;
      const before = await retries();
      const result = await moves.resign({ id: seats[seat] } as never, gameId, {});
      needed.push((await retries()) - before);
      expect(result.status).toBe('finished');
      const ends = await prisma.gameEvent.findMany({ where: { gameId, kind: 'end' }, select: { seat: true, seq: true } });
      expect(ends).toEqual([{ seat, seq: result.version }]);
    }
    // The figure behind MovesService's bound (MAX_DECISIONS): see it with DEBUG_RETRIES=1.
    if (process.env.DEBUG_RETRIES) console.info(`retries per resignation: ${needed.join(' ')} (most ${Math.max(...needed)})`);
  }, 120_000 + GAMES * 5_000);
});
