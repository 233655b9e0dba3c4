import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../../../../test/app.js';
import { waitFor as waitUntil } from '../../../../test/wait.js';
import { loadConfig, type AppConfig } from '../config/app-config.js';
import type { FeedEventType, NewFeedEvent } from '../player-events/feed-events.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';

/** Test settings: loopback receivers allowed, a short retry schedule and time-out, quick polling. */
export function webhookTestConfig(webhooks: Partial<AppConfig['webhooks']> = {}, jobs: Partial<AppConfig['jobs']> = {}): Partial<AppConfig> {
  const base = loadConfig({ NODE_ENV: 'test' });
  return {
    webhooks: { ...base.webhooks, allowHttpLoopback: true, retrySchedule: [1, 1], timeoutMs: 500, sweepMs: 1000, ...webhooks },
    jobs: { ...base.jobs, pollMs: 200, ...jobs },
  };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** The sender's port: one per connection. */
  remotePort: number | undefined;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/** An HTTP server on 127.0.0.1 that records what it is sent and answers as told. */
export interface Receiver {
  url: string;
  port: number;
  requests: Received[];
  answer: (request: Received) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => ({ status: 204 })): Promise<Receiver> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), remotePort: req.socket.remotePort };
      requests.push(received);
      const reply = receiver.answer(received);
      if (reply === 'hang') return; // never answers; close() drops it
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** test/wait.ts's waitFor, its time-out first as these tests give it. */
export function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms = 10_000, what = 'condition'): Promise<T> {
  return waitUntil(check, what, { timeout: ms, every: 50 }) as Promise<T>;
}

/** Adds feed events for a player, each in its own transaction, and wakes the dispatcher. */
export async function addFeedEvents(t: TestApp, playerId: string, types: FeedEventType[]): Promise<void> {
  const feed = t.app.get(PlayerEventsService);
  for (const type of types) {
    const event = feedEvent(playerId, type);
    await t.app.get(PrismaService).$transaction((tx) => feed.add(tx, [event]));
    feed.published([event]);
  }
}

let seat = 0;

function feedEvent(playerId: string, type: FeedEventType): NewFeedEvent {
  const gameId = randomUUID();
  const lobbyId = randomUUID();
  switch (type) {
    case 'yourTurn':
      return { playerId, type, gameId, lobbyId: null, seq: 3, payload: { gameId, seq: 3, seat: 0, deadline: null, preset: 'classic' } };
    case 'lobbyJoined':
      return { playerId, type, gameId: null, lobbyId, seq: null, payload: { lobbyId, playerId, name: 'ala', seat: ++seat % 4 } };
    case 'lobbyLeft':
      return { playerId, type, gameId: null, lobbyId, seq: null, payload: { lobbyId, playerId, name: 'ala', seat: 1, removed: false } };
    default:
      throw new Error(`no test event of type ${type}`);
  }
}
