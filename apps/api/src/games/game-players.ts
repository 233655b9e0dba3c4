import { placesOf } from '@mizerka/rules';
import type { GamePlayer } from './models/game.model.js';

export interface SeatRow {
  seat: number;
  playerId: string;
  place: number | null;
  player: { name: string; kind: 'human' | 'bot'; botLevel: string | null };
}

/** The player fields a seat row selects. */
export const SEAT_PLAYER = { name: true, kind: true, botLevel: true } as const;

/**
 * Seats with names and totals; the stored place once the game is over, else the place by total so far.
 * An imported game's seats other than the importer's are names only (`imported.names`, from its
 * record): no player id, and the place its total (and its early end) gives.
 */
export function gamePlayers(
  seats: SeatRow[],
  totals: number[],
  imported: { names: string[]; endSeat: number | null } | null = null,
): GamePlayer[] {
  const places = placesOf(totals, imported?.endSeat ?? null);
  const named = (imported?.names ?? []).map((name, seat): GamePlayer => ({
    seat,
    playerId: null,
    name,
    kind: 'human',
    botLevel: null,
    total: totals[seat] ?? 0,
    place: places[seat] ?? null,
  }));
  const played = seats.map((s): GamePlayer => ({
    seat: s.seat,
    playerId: s.playerId,
    name: s.player.name,
    kind: s.player.kind,
    botLevel: s.player.botLevel,
    total: totals[s.seat] ?? 0,
    place: s.place ?? places[s.seat] ?? null,
  }));
  if (named.length === 0) return played;
  return named.map((n) => played.find((p) => p.seat === n.seat) ?? n);
}

/** gamePlayers' third argument for a game row: its record's names when it was imported, else null. */
export function importedSeats(game: { importedBy: string | null; seatNames: string[]; endSeat: number | null }) {
  return game.importedBy === null ? null : { names: game.seatNames, endSeat: game.endSeat };
}
