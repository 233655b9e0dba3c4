import { Prisma } from '../generated/prisma/client.js';
import type { PrismaService } from '../prisma/prisma.service.js';

/** One deal of a hand-built game, as the deals table keeps it (null scores: abandoned by an early end). */
export interface BuiltDeal {
  dealer: number;
  contract?: string;
  declarer?: number;
  bid?: string;
  trump?: string;
  tricks: (number | null)[];
  scores: number[] | null;
}

export interface BuiltGame {
  preset: string;
  /** Player ids by seat. */
  seats: string[];
  totals: number[];
  /** Final places by seat; omitted for an active game. */
  places?: number[];
  status?: 'active' | 'finished';
  rated?: boolean;
  endSeat?: number;
  endReason?: 'resigned' | 'forfeit';
  importedBy?: string;
  deals?: BuiltDeal[];
  createdAt?: Date;
}

/**
 * A game written straight into the tables, with known deals and places, as the game store would
 * have left it (no state to play on: only what ratings, history and statistics read).
 */
export async function insertGame(prisma: PrismaService, g: BuiltGame): Promise<string> {
  const status = g.status ?? 'finished';
  const created = g.createdAt ?? new Date();
  const game = await prisma.game.create({
    data: {
      preset: g.preset,
      players: g.seats.length,
      firstDealer: g.deals?.[0]?.dealer ?? 0,
      status,
      version: 1,
      phase: status === 'finished' ? 'over' : 'play',
      state: {},
      totals: g.totals,
      winners: g.places ? g.places.flatMap((p, seat) => (p === 1 ? [seat] : [])) : [],
      rated: g.rated ?? true,
      endSeat: g.endSeat ?? null,
      endReason: g.endReason ?? null,
      importedBy: g.importedBy ?? null,
      createdAt: created,
      finishedAt: status === 'finished' ? created : null,
      seats: { create: g.seats.map((playerId, seat) => ({ seat, playerId, total: g.places ? g.totals[seat] : null, place: g.places?.[seat] ?? null, createdAt: created })) },
      deals: {
        create: (g.deals ?? []).map((d, index) => ({
          index,
          dealer: d.dealer,
          seed: new Uint8Array(16),
          seedHash: new Uint8Array(32),
          contract: d.contract ?? null,
          declarer: d.declarer ?? null,
          bid: d.bid ?? null,
          trump: d.trump ?? null,
          tricks: d.tricks,
          scores: d.scores === null ? Prisma.DbNull : d.scores,
          finishedAt: d.scores === null ? null : created,
        })),
      },
    },
    select: { id: true },
  });
  return game.id;
}
