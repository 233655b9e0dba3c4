import { waitFor } from '../../../../test/wait.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import type { NoticeRouter } from './notice-router.js';

/**
 * Routes the player's feed as the routing job would, until their cursor has passed their newest
 * event: the feed is read below the horizon (the oldest transaction still running anywhere on the
 * server's PostgreSQL), so one pass may stop short while another test's transaction is open.
 */
export async function routeUntilCaughtUp(router: NoticeRouter, prisma: PrismaService, playerId: string): Promise<void> {
  await waitFor(
    async () => {
      await router.routePlayer(playerId);
      const [row] = await prisma.$queryRaw<{ behind: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM player_events e JOIN notification_settings s ON s.player_id = e.player_id
                        WHERE e.player_id = ${playerId}::uuid AND (e.tx, e.id) > (s.cursor_tx, s.cursor_id)) AS behind`;
      return !row.behind;
    },
    'the feed routed',
    { timeout: 10_000, every: 50 },
  );
}
