import { placesOf } from '@mizerka/rules';
import type { GamePlayer } from './models/game.model.js';

export interface SeatRow {
  seat: number;
  playerId: string;
  place: number | null;
  player: { name: string };
}

/** Seats with names and totals; the stored place once the game is over, else the place by total so far. */
export function gamePlayers(seats: SeatRow[], totals: number[]): GamePlayer[] {
  const places = placesOf(totals);
  return seats.map((s) => ({
    seat: s.seat,
    playerId: s.playerId,
    name: s.player.name,
    total: totals[s.seat] ?? 0,
    place: s.place ?? places[s.seat] ?? null,
  }));
}
