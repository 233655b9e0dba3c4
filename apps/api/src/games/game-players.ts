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
  imported: { names: string[]; bots: string[]; endSeat: number | null } | null = null,
): GamePlayer[] {
  const places = placesOf(totals, imported?.endSeat ?? null);
  const named = (imported?.names ?? []).map((name, seat): GamePlayer => ({
    seat,
    playerId: null,
    name,
    // As its record says: a computer player's mark is its level, or 'account' (a bot account: no level).
    kind: imported?.bots[seat] ? 'bot' : 'human',
    botLevel: imported?.bots[seat] && imported.bots[seat] !== 'account' ? imported.bots[seat] : null,
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

/** gamePlayers' third argument for a game row: its record's names and bots when it was imported, else null. */
export function importedSeats(game: { importedBy: string | null; seatNames: string[]; seatBots: string[] | null; endSeat: number | null }) {
  return game.importedBy === null ? null : { names: game.seatNames, bots: game.seatBots ?? [], endSeat: game.endSeat };
}
