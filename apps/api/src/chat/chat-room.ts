import type { ChatRoomKind, Prisma } from '../generated/prisma/client.js';

/** Where a chat is held: a game's table or a lobby's. */
export type ChatTable = { gameId: string } | { lobbyId: string };

/** One room's key: what its followers share a tail by, and what the bus names. */
export function roomKey(table: ChatTable, room: ChatRoomKind): string {
  return 'gameId' in table ? `game:${table.gameId}:${room}` : `lobby:${table.lobbyId}:${room}`;
}

/** The room of a key, as a filter of its messages. */
export function roomWhere(key: string): Prisma.ChatRoomWhereInput {
  const [kind, id, room] = key.split(':') as [string, string, ChatRoomKind];
  return kind === 'game' ? { gameId: id, kind: room } : { lobbyId: id, kind: room };
}
