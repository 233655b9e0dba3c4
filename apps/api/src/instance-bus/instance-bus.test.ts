import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redisAvailable, TEST_REDIS_URL } from '../../../../test/redis.js';
import { startTestAppsPerTest } from '../../../../test/app.js';
import { GameLogBus } from '../games/index.js';
import { MAKE_MOVE, pickMove, players, rng, startGame, TURN_QUERY } from '../games/games.test-kit.js';
import { PlayerFeedBus } from '../player-events/player-feed-bus.js';
import { InstanceBus } from './instance-bus.js';

// Two instances on one database and one Redis: what one commits, the other hears of at once.
const REDIS_URL = TEST_REDIS_URL;
const redisUp = await redisAvailable(REDIS_URL, 'instance-bus tests');

const WITH_REDIS = { redisUrl: REDIS_URL, authCacheSeconds: 60 };
const until = async (check: () => boolean, what: string, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('the instance bus', () => {
  const start = startTestAppsPerTest();

  it.skipIf(!redisUp)('tells the other instance of a move, of a feed event and of a revoked token at once', async () => {
    const redisPrefix = `mizerka-test-${randomUUID()}:`; // the two instances' channels, nobody else's
    const a = await start({ ...WITH_REDIS, redisPrefix });
    const b = await start({ ...WITH_REDIS, redisPrefix }, a.databaseUrl);
    await until(() => a.app.get(InstanceBus).state() === 'up' && b.app.get(InstanceBus).state() === 'up', 'both buses');
    const seated = await players(a, 3, 'bus');
    const gameId = await startGame(a, seated, 'bidding');
    const versions: number[] = [];
    const stop = b.app.get(GameLogBus).listen(gameId, (v) => versions.push(v));
    const fed: string[] = [];
    const stopFeed = b.app.get(PlayerFeedBus).listen(seated[0].id, () => fed.push('x'));
    try {
      const toMove = (await a.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
      const mine = (await a.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
      const moved = await a.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, rng(2)) } }, seated[toMove].token);
      expect(moved.errors).toBeUndefined();
      await until(() => versions.includes(moved.data!.makeMove.version), 'the move notice on B', 1000);
      a.app.get(PlayerFeedBus).published([seated[0].id]);
      await until(() => fed.length > 0, 'the feed notice on B', 1000);
    } finally {
      stop();
      stopFeed();
    }

    // B trusts a token for AUTH_CACHE_SECONDS (60 s here); a revoke on A reaches it at once.
    const [p] = await players(a, 1, 'rev');
    const extra = await a.gql<{ createApiToken: { token: string; apiToken: { id: string } } }>(
      'mutation { createApiToken(input: { name: "second" }) { token apiToken { id } } }',
      {},
      p.token,
    );
    const { token, apiToken } = extra.data!.createApiToken;
    expect((await b.rest('GET', '/api/v1/me', undefined, token)).status).toBe(200);
    const revoked = await a.gql('mutation($id: ID!) { revokeApiToken(id: $id) { id } }', { id: apiToken.id }, p.token);
    expect(revoked.errors).toBeUndefined();
    // The notice may still be on its way (a few ms); never as long as the cache would keep it.
    let status = 200;
    const end = Date.now() + 1000;
    while (status === 200 && Date.now() < end) status = (await b.rest('GET', '/api/v1/me', undefined, token)).status;
    expect(status).toBe(401);
  });

  it('lets moves go on when Redis does not answer, and says so in readiness as degraded', async () => {
    const dead = await start({ redisUrl: 'redis://127.0.0.1:1' });
    expect(dead.app.get(InstanceBus).state()).toBe('down');
    const seated = await players(dead, 3, 'bud');
    const gameId = await startGame(dead, seated, 'bidding');
    const toMove = (await dead.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove as number;
    const mine = (await dead.gql(TURN_QUERY, { id: gameId }, seated[toMove].token)).data!.game;
    const moved = await dead.gql(MAKE_MOVE, { input: { gameId, ...pickMove(mine.view.legalMoves, rng(5)) } }, seated[toMove].token);
    expect(moved.errors).toBeUndefined();
    const ready = await dead.rest('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.info.redis).toEqual({ status: 'up', state: 'degraded' });
  });

  it('is silent without REDIS_URL: one instance, nothing published', async () => {
    const single = await start({ redisUrl: null });
    expect(single.app.get(InstanceBus).state()).toBe('single');
    expect((await single.rest('GET', '/health/ready')).body.info.redis).toBeUndefined();
  });
});
