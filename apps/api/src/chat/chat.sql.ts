import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';
import type { ChatRoomKind } from '../generated/prisma/client.js';

/**
 * The next number of a room's messages, making the room if it has none yet. The room's row stays
 * locked until the caller's transaction ends, so two messages of one room commit in the order of
 * their numbers, and a follower that read up to N never misses a message numbered below N.
 */
export function nextChatSeqSql(table: { gameId: string } | { lobbyId: string }, room: ChatRoomKind) {
  const row = z.object({ id: z.string(), seq: z.number() });
  if ('gameId' in table) {
    return sqlQuery(
      row,
      Prisma.sql`
        INSERT INTO chat_rooms (id, game_id, kind, last_seq) VALUES (gen_random_uuid(), ${table.gameId}::uuid, ${room}::"ChatRoomKind", 1)
        ON CONFLICT (game_id, kind) DO UPDATE SET last_seq = chat_rooms.last_seq + 1
        RETURNING id, last_seq AS seq`,
    );
  }
  return sqlQuery(
    row,
    Prisma.sql`
      INSERT INTO chat_rooms (id, lobby_id, kind, last_seq) VALUES (gen_random_uuid(), ${table.lobbyId}::uuid, ${room}::"ChatRoomKind", 1)
      ON CONFLICT (lobby_id, kind) DO UPDATE SET last_seq = chat_rooms.last_seq + 1
      RETURNING id, last_seq AS seq`,
  );
}
