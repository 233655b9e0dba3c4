// gameLog followers for `bench:api --instances N --subscribers S`: S graphql-ws sockets, follower i
// on instance i mod N, following game i mod games as one of its players (seat ⌊i / games⌋ mod
// seats), subscribed as game-log.live.test.ts and the soak do. Each log entry's lag is the time
// this process read it (wall clock) − its `createdAt` (the server's clock when it planned the
// write, before the statement and its commit: it can only overstate the commit → delivery time).
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { Game } from './players.js';

const GAME_LOG = 'subscription($gameId: ID!, $after: Int) { gameLog(gameId: $gameId, after: $after) { seq createdAt } }';

export const wallClock = (): number => performance.timeOrigin + performance.now();

export interface Followers {
  /** Followers whose first subscription was acknowledged (the socket open and the subscription running). */
  connected(): number;
  /**
   * Entries whose createdAt is in [from, to] and after the follower subscribed: lag (ms) each; with
   * `writer`, only those written through the follower's own instance (same) or another (other).
   */
  lags(from: number, to: number, writer?: 'same' | 'other'): number[];
  entries: number;
  errors: Record<string, number>;
  close(): Promise<void>;
}

/**
 * `writerOf(gameId, seq)`: the instance the move that wrote the entry went through, when known.
 */
export function followGameLogs(urls: string[], games: Game[], count: number, writerOf?: (gameId: string, seq: number) => number | undefined): Followers {
  const clients: Client[] = [];
  // Flat arrays: created (ms since epoch) and lag per delivered entry.
  const created: number[] = [];
  const lag: number[] = [];
  // 1: written through the follower's instance, 2: through another, 0: unknown.
  const writer: number[] = [];
  const errors: Record<string, number> = {};
  let connected = 0;
  let closing = false;
  const countError = (code: string) => {
    errors[code] = (errors[code] ?? 0) + 1;
  };
  for (let i = 0; i < count; i++) {
    const game = games[i % games.length];
    const token = game.tokens[Math.floor(i / games.length) % game.tokens.length];
    const url = urls[i % urls.length].replace(/^http/, 'ws') + '/graphql';
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: false,
      on: { connected: () => void connected++ },
    });
    clients.push(client);
    // Follows the game its seat is in now: after a rematch, the new one (once the players moved on).
    const subscribe = (lastId: string | null) => {
      if (closing) return;
      if (game.id === lastId) {
        setTimeout(() => subscribe(lastId), 20).unref();
        return;
      }
      const gameId = game.id;
      const since = wallClock();
      client.subscribe<{ gameLog: { seq: number; createdAt: string } }>(
        { query: GAME_LOG, variables: { gameId, after: game.version } },
        {
          next: (message) => {
            const now = wallClock();
            if (message.errors) return countError(String(message.errors[0]?.extensions?.code ?? 'ERROR'));
            const { seq, createdAt } = message.data!.gameLog;
            const at = Date.parse(createdAt);
            // Entries written before this subscription began are its catch-up, not a delivery.
            if (at < since) return;
            created.push(at);
            lag.push(now - at);
            const through = writerOf?.(gameId, seq);
            writer.push(through === undefined ? 0 : through === i % urls.length ? 1 : 2);
          },
          error: (error) => {
            if (closing) return;
            countError(error instanceof Error ? error.message.slice(0, 40) : 'socket closed');
          },
          complete: () => subscribe(gameId),
        },
      );
    };
    subscribe(null);
  }
  return {
    connected: () => connected,
    lags(from, to, which) {
      const want = which === undefined ? -1 : which === 'same' ? 1 : 2;
      const out: number[] = [];
      for (let k = 0; k < created.length; k++) if (created[k] >= from && created[k] <= to && (want < 0 || writer[k] === want)) out.push(lag[k]);
      return out;
    },
    get entries() {
      return created.length;
    },
    errors,
    async close() {
      closing = true;
      await Promise.all(clients.map((c) => c.dispose()));
    },
  };
}
