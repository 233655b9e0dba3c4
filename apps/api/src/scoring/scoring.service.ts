import { Injectable } from '@nestjs/common';
import { notFound } from '../common/errors.js';
import { queryRows } from '../common/sql-query.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { DealHistory, ScoreSheet } from './models/scoring.model.js';
import { gameTricksSql } from './scoring.sql.js';
import { DEAL_FACTS, dealSeedHash, gamePlayers, importedSeats, refuseSpectatorOfHeldBoard, SEAT_PLAYER, type GameEndView } from '../games/index.js';

/**
 * Standings and deal history from the projections (Deal, Trick, GameSeat rows) that each move
 * writes, tricks through the view `tricks` (rows, or a compacted game's packed deals); nothing is replayed. Only public facts are stored there: trick cards once played,
 * results once a deal is over. Seeds stay out (the game view reveals them at the end).
 */
@Injectable()
export class ScoringService {
  constructor(private readonly prisma: PrismaService) {}

  /** The score sheet as `viewerId` may see it (a duplicate board's game: only its players, until the board is released). */
  async scoreSheet(gameId: string, viewerId: string | null = null): Promise<ScoreSheet> {
    const game = await this.prisma.game.findUnique({
      where: { id: gameId },
      select: {
        status: true,
        revealHeld: true,
        totals: true,
        players: true,
        endSeat: true,
        endReason: true,
        importedBy: true,
        seatNames: true,
        seatBots: true,
        seats: {
          orderBy: { seat: 'asc' },
          select: { seat: true, playerId: true, place: true, player: { select: SEAT_PLAYER } },
        },
        deals: {
          orderBy: { index: 'asc' },
          select: DEAL_FACTS,
        },
      },
    });
    if (!game) throw notFound('Game');
    refuseSpectatorOfHeldBoard(game.revealHeld, game.seats.find((s) => s.playerId === viewerId)?.seat ?? null);
    const tricks = new Map<number, DealHistory['tricks']>();
    for (const t of await queryRows(this.prisma, gameTricksSql(gameId))) {
      let list = tricks.get(t.deal_index);
      if (!list) tricks.set(t.deal_index, (list = []));
      list.push({ index: t.index, leader: t.leader, cards: t.cards, winner: t.winner });
    }
    const running = Array.from({ length: game.players }, () => 0);
    const deals: DealHistory[] = game.deals.map((d) => {
      const scores = d.finishedAt ? (d.scores as number[] | null) : null;
      if (scores) scores.forEach((score, seat) => (running[seat] += score));
      return {
        index: d.index,
        dealer: d.dealer,
        seedHash: dealSeedHash(d),
        contract: d.contract as DealHistory['contract'],
        declarer: d.declarer,
        bid: d.bid as DealHistory['bid'],
        trump: d.trump as DealHistory['trump'],
        finished: d.finishedAt !== null,
        tricks: tricks.get(d.index) ?? [],
        tricksTaken: d.finishedAt ? (d.tricks as (number | null)[] | null) : null,
        scores,
        runningTotals: scores ? [...running] : null,
      };
    });
    const end = game.endSeat === null ? null : { seat: game.endSeat, reason: game.endReason as GameEndView['reason'] };
    return { gameId, status: game.status, standings: gamePlayers(game.seats, game.totals, importedSeats(game)), imported: game.importedBy !== null, end, deals };
  }
}
