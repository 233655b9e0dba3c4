/**
 * Who makes a move. Everyone moves through the same door (MovesService.submit) with the same
 * version guard, so a race between a person and the clock has exactly one winner, and the log
 * records who acted and why.
 */
export type Actor =
  /** A person holding the seat, through the API. */
  | { kind: 'player'; playerId: string }
  /** The server acting for a seat: a time-out move or a forfeit. */
  | { kind: 'system'; seat: number; cause: 'timeout' | 'forfeit' }
  /** A bot holding the seat. */
  | { kind: 'bot'; playerId: string };
