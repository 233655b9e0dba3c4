import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { Prisma } from '../generated/prisma/client.js';

/**
 * A game's tricks, deal by deal, in play order: through the view `tricks`, so that a compacted game
 * (its tricks packed in deals.played_tricks) reads as the rows it was written as.
 */
export function gameTricksSql(gameId: string) {
  return sqlQuery(
    z.object({ deal_index: z.number(), index: z.number(), leader: z.number(), cards: z.array(z.string()), winner: z.number() }),
    Prisma.sql`
      SELECT deal_index, index::int AS index, leader::int AS leader, cards, winner::int AS winner
        FROM tricks WHERE game_id = ${gameId}::uuid
       ORDER BY deal_index, index`,
  );
}
