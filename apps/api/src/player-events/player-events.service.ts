import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Outbox } from '../outbox/outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';

/** A row of a player's own feed: what concerns them, in the order it happened. */
export interface PlayerEventRow {
  id: bigint;
  type: string;
  gameId: string;
  seq: number;
  payload: unknown;
  createdAt: Date;
}

/**
 * Each player's feed of what concerns them (their turn began, a game of theirs finished), made
 * from the move path's outbox after the commit. Rows are unique per (player, game, seq, type),
 * so a job delivered twice adds nothing. The feed is what the your-turn stream and webhooks
 * read, resuming by id.
 */
@Injectable()
export class PlayerEventsService implements OnModuleInit {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: Outbox,
  ) {}

  onModuleInit(): void {
    this.outbox.consume('turnBegan', 'player-events', (items) =>
      this.add(
        items.map(({ entry, gameId, seq }) => ({
          playerId: entry.playerId,
          type: 'yourTurn',
          gameId,
          seq,
          payload: { seat: entry.seat, deadline: entry.deadline },
        })),
      ),
    );
    this.outbox.consume('gameFinished', 'player-events', async (items) => {
      const seats = await this.prisma.gameSeat.findMany({
        where: { gameId: { in: items.map((i) => i.gameId) } },
        select: { gameId: true, seat: true, playerId: true },
      });
      await this.add(
        items.flatMap(({ entry, gameId, seq }) =>
          seats
            .filter((s) => s.gameId === gameId)
            .map(({ seat, playerId }) => ({
              playerId,
              type: 'gameFinished',
              gameId,
              seq,
              payload: { seat, place: entry.places[seat], totals: entry.totals, winners: entry.winners, end: entry.end },
            })),
        ),
      );
    });
  }

  /** The player's feed after event `after`, oldest first. */
  async feed(playerId: string, after: bigint, limit: number): Promise<PlayerEventRow[]> {
    return this.prisma.playerEvent.findMany({
      where: { playerId, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: limit,
      select: { id: true, type: true, gameId: true, seq: true, payload: true, createdAt: true },
    });
  }

  /** One statement for the whole batch (the rows go as one JSON parameter); a row already there is skipped. */
  private async add(rows: { playerId: string; type: string; gameId: string; seq: number; payload: object }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.prisma.$executeRaw`
      INSERT INTO player_events (player_id, type, game_id, seq, payload)
      SELECT r."playerId", r.type, r."gameId", r.seq, r.payload
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
             AS r("playerId" uuid, type varchar, "gameId" uuid, seq int, payload jsonb)
      ON CONFLICT (player_id, game_id, seq, type) DO NOTHING`;
  }
}
