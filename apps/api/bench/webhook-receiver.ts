// A webhook receiver for the benchmarks: an HTTP server on 127.0.0.1 in the load generator that
// answers every POST 200 at once and notes, per delivery, its event type, the event's time (the
// body's `timestamp`: the feed row's created_at, the time of the transaction that wrote it, so
// never after its commit) and when the body had arrived; and the webhook endpoints that point at it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { wallClock } from './feed-streams.js';
import { data, type GraphQLTransport } from './game-client/index.js';
import { summarise, type LatencySummary } from './measure.js';

/** Every type of the players' feed (WebhookEventType). */
export const ALL_EVENT_TYPES = ['yourTurn', 'deadlineNear', 'gameStarted', 'gameFinished', 'timedOut', 'lobbyJoined', 'lobbyLeft'];

interface Received {
  type: string;
  /** The event's time (ms since the epoch). */
  eventAt: number;
  /** When the body had arrived (wall clock, fractional ms). */
  at: number;
}

export interface WebhookStats {
  /** Deliveries of events in the window, received by the end of the drain. */
  received: number;
  byType: Record<string, number>;
  /** Arrival − the event's time (ms). */
  lagMs: LatencySummary;
  lagP90Ms: number;
  /** Deliveries (of any event) that arrived during the window, per second of it: the delivery rate. */
  perSecond: number;
  /** Duplicates (the same webhook-id twice: an at-least-once retry). */
  duplicates: number;
  /** Bodies that were not a delivery. */
  malformed: number;
}

export interface WebhookReceiver {
  url: string;
  /** Deliveries received so far. */
  count(): number;
  /** When the last delivery arrived (wall clock, ms; 0: none yet). */
  lastArrival(): number;
  /** What arrived for events whose time is in [from, to] (ms since the epoch). */
  stats(from: number, to: number): WebhookStats;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  let malformed = 0;
  let lastAt = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = wallClock();
      lastAt = at;
      res.writeHead(200, { 'content-length': '0' }).end();
      const id = String(req.headers['webhook-id'] ?? '');
      if (seen.has(id)) duplicates++;
      else seen.add(id);
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; timestamp: string };
        const eventAt = Date.parse(body.timestamp);
        if (typeof body.type !== 'string' || Number.isNaN(eventAt)) throw new Error('not a delivery');
        received.push({ type: body.type, eventAt, at });
      } catch {
        malformed++;
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    count: () => received.length,
    lastArrival: () => lastAt,
    stats(from, to) {
      const inWindow = received.filter((r) => r.eventAt >= from && r.eventAt <= to);
      const byType: Record<string, number> = {};
      for (const r of inWindow) byType[r.type] = (byType[r.type] ?? 0) + 1;
      const lags = inWindow.map((r) => r.at - r.eventAt);
      const sorted = Float64Array.from(lags).sort();
      return {
        received: inWindow.length,
        byType,
        lagMs: summarise(lags),
        lagP90Ms: sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] : NaN,
        perSecond: received.filter((r) => r.at >= from && r.at <= to).length / ((to - from) / 1000),
        duplicates,
        malformed,
      };
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const CREATE_ENDPOINT = `mutation CreateEndpoint($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { endpoint { id } secret } }`;

/** One endpoint per token's player, for every event type, pointing at `url`. */
export async function registerEndpoints(client: GraphQLTransport, tokens: string[], url: string, concurrency = 16): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tokens.length) {
      const token = tokens[next++];
      data(await client.gql(CREATE_ENDPOINT, { input: { url, eventTypes: ALL_EVENT_TYPES, description: 'bench' } }, token), 'createWebhookEndpoint');
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tokens.length) }, worker));
}

/**
 * Waits (at most `maxSeconds`) until what the moves caused has been delivered: no pending
 * delivery, an empty outbox, and nothing more arriving at `receiver` for a second. Returns how
 * long it took and what was still pending.
 */
export async function drainWebhooks(databaseUrl: string, receiver: WebhookReceiver, maxSeconds: number): Promise<{ seconds: number; pending: number }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const started = Date.now();
  let last = -1;
  let pending: number;
  try {
    for (;;) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') + (SELECT count(*) FROM outbox) AS n`,
      );
      pending = Number(rows[0].n);
      const count = receiver.count();
      if ((pending === 0 && count === last) || Date.now() - started > maxSeconds * 1000) break;
      last = count;
      await new Promise((done) => setTimeout(done, 1000));
    }
  } finally {
    await db.end();
  }
  return { seconds: (Date.now() - started) / 1000, pending };
}

export interface WebhookStages {
  /** Feed row written → its delivery row written (the fan-out), ms. */
  fanOutMs: LatencySummary;
  /** Delivery row written → its first attempt began (the job queue), ms. */
  queueMs: LatencySummary;
}

/** Where the lag of the deliveries of events in [from, to] went, from the server's own rows. */
export async function webhookStages(databaseUrl: string, from: number, to: number): Promise<WebhookStages> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ fan_out: number; queue: number | null }>(
      `SELECT extract(epoch FROM d.created_at - p.created_at) * 1000 AS fan_out,
              extract(epoch FROM a.at - d.created_at) * 1000 AS queue
         FROM webhook_deliveries d
         JOIN player_events p ON p.id = d.event_id
         LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = 1
        WHERE p.created_at BETWEEN $1 AND $2`,
      [new Date(from), new Date(to)],
    );
    return {
      fanOutMs: summarise(rows.map((r) => Number(r.fan_out))),
      queueMs: summarise(rows.filter((r) => r.queue !== null).map((r) => Number(r.queue))),
    };
  } finally {
    await db.end();
  }
}
