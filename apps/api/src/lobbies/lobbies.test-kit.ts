import type { TestApp } from '../../../../test/app.js';
import { PrismaService } from '../prisma/prisma.service.js';

/** Shared by the lobby tests: the fields of a lobby, and players with fresh names. */
export const LOBBY_FIELDS = `
  id preset players visibility status inviteCode gameId previousGameId createdAt seatsTaken seatsFree
  options { mizerkaQuotas target doubleMisere }
  host { id name }
  seats { seat player { id name } }
`;

export interface LobbyView {
  id: string;
  preset: string;
  players: number;
  visibility: 'public' | 'unlisted';
  status: 'open' | 'started' | 'closed';
  inviteCode: string;
  gameId: string | null;
  previousGameId: string | null;
  seatsTaken: number;
  seatsFree: number;
  options: { mizerkaQuotas: string | null; target: number | null; doubleMisere: boolean | null };
  host: { id: string; name: string };
  seats: { seat: number; player: { id: string; name: string } | null }[];
}

export interface TestPlayer {
  id: string;
  name: string;
  token: string;
}

let counter = 0;

/** A new player; names carry the process id so parallel test files never collide. */
export async function player(t: TestApp, label = 'p'): Promise<TestPlayer> {
  const name = `${label}${process.pid % 10_000}x${++counter}`.slice(0, 32);
  const { id, token } = await t.register(name);
  return { id, name, token };
}

export async function players(t: TestApp, count: number, label = 'p'): Promise<TestPlayer[]> {
  const list: TestPlayer[] = [];
  for (let i = 0; i < count; i++) list.push(await player(t, label));
  return list;
}

/** The seat numbers mapped to player ids, for comparing tables. */
export function seating(lobby: LobbyView): (string | null)[] {
  return lobby.seats.map((s) => s.player?.id ?? null);
}

/** Ends a game as if its last deal had been scored, for "play again". */
export async function finishGame(t: TestApp, gameId: string): Promise<void> {
  await t.app.get(PrismaService).game.update({ where: { id: gameId }, data: { status: 'finished', finishedAt: new Date() } });
}

export function prismaOf(t: TestApp): PrismaService {
  return t.app.get(PrismaService);
}
