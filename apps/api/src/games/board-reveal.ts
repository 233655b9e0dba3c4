import { DomainError } from '../common/errors.js';

/**
 * A duplicate board's game, while its board is held (games.reveal_held), is shown only to its own
 * seats: a spectator could be a player of another table on the same board, and the cards played
 * here, the contracts and the results are that table's cards to come. Read paths call this with the
 * viewer's seat (null: not seated) on the reads that show the game's play; ordinary games pass.
 */
export function refuseSpectatorOfHeldBoard(revealHeld: boolean, seat: number | null): void {
  if (revealHeld && seat === null) {
    throw new DomainError('FORBIDDEN', "A duplicate board's game is shown only to its players until the board is released: another table may be playing the same cards", {
      reason: 'board-held',
    });
  }
}
