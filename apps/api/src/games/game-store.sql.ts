import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import { GameStatusEnum } from './models/enums.js';

// The move path's reads (GameStore), run on the hot pool as prepared statements: each text is fixed.

/** The game row, its seats, `playerId`'s seat and their earlier use of idempotency key `key`: one round trip. */
export function gameReadSql(gameId: string, playerId: string | null, key: string | null) {
  return sqlQuery(
    z.object({
      status: z.enum(GameStatusEnum),
      version: z.number(),
      board_seed: z.string().nullable(),
      state: z.unknown(),
      seat: z.number().nullable(),
      seats: z.array(z.string()).nullable(),
      server_bots: z.array(z.boolean()).nullable(),
      time_control: z.unknown(),
      turn_started_at: z.date().nullable(),
      turn_deadline: z.date().nullable(),
      turn_paused_at: z.date().nullable(),
      turn_paused_deadline: z.date().nullable(),
      away: z.array(z.boolean()).nullable(),
      bank_ms: z.array(z.number()).nullable(),
      timeouts: z.array(z.number()).nullable(),
      earlier_seq: z.number().nullable(),
      request_hash: z.string().nullable(),
      response: z.unknown(),
    }),
    Prisma.sql`
      SELECT g.status::text AS status, g.version, g.board_seed, g.state, s.seat,
             g.time_control, g.turn_started_at, g.turn_deadline, g.turn_paused_at, g.turn_paused_deadline, g.bank_ms, g.timeouts,
             t.seats, t.server_bots, t.away,
             e.seq AS earlier_seq, e.request_hash, e.response
        FROM games g
        CROSS JOIN LATERAL (
          SELECT array_agg(a.player_id::text ORDER BY a.seat) AS seats, array_agg(p.bot_level IS NOT NULL ORDER BY a.seat) AS server_bots,
                 -- By seat: its player is on vacation and this game lets that stop its clock.
                 array_agg(g.vacation_allowed AND EXISTS (SELECT 1 FROM vacations v WHERE v.player_id = a.player_id AND v.ended_at IS NULL)
                           ORDER BY a.seat) AS away
            FROM game_seats a JOIN players p ON p.id = a.player_id WHERE a.game_id = g.id) t
        LEFT JOIN game_seats s ON s.game_id = g.id AND s.player_id = ${playerId}::uuid
        LEFT JOIN game_events e
          ON e.game_id = g.id AND e.player_id = ${playerId}::uuid AND e.idempotency_key = ${key}::varchar
       WHERE g.id = ${gameId}::uuid`,
  );
}

/** The log entries' rules events of deal `deal` up to version `upTo`, oldest first. */
export function dealEventsSql(gameId: string, deal: number, upTo: number) {
  return sqlQuery(
    z.object({ events: z.unknown() }),
    Prisma.sql`
      SELECT events FROM game_events WHERE game_id = ${gameId}::uuid AND deal_index = ${deal}::int AND seq <= ${upTo}::int ORDER BY seq`,
  );
}
