import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import { once } from 'node:events';
import { toDomainError } from '../common/to-domain-error.js';
import type { AppConfig } from '../config/app-config.js';
import type { AuthenticatedPlayer } from './authenticated-player.js';
import { LiveConnections } from './live-connections.js';
import { clientAddress } from '../common/client-address.js';

/** One server-sent event: `id:`, `event:` and `data:` (JSON, one line). */
export interface SseMessage {
  id: string;
  event: string;
  data: unknown;
}

/**
 * The source of a stream; null when there is nothing to send now or ever (answered 204, so
 * EventSource stops retrying). It calls `started` once it follows: whatever is committed from then
 * on reaches the stream (its `: ready` comment line says so to the client).
 */
export type OpenStream<T> = (signal: AbortSignal, started: () => void) => Promise<AsyncIterator<T> | null>;

/**
 * Server-sent event streams over REST (`/me/events`, `/games/:id/events/stream`). Each one counts
 * as a live connection of its player with one subscription, against the same caps (per player
 * and per address) as graphql-ws sockets (LiveConnections), and ends when its client leaves, when its token is revoked or
 * expires (after an `error` event saying so), when its source ends, and when the server shuts
 * down: an open stream never holds the shutdown.
 */
@Injectable()
export class EventStreams implements OnModuleDestroy {
  private readonly logger = new Logger(EventStreams.name);
  private readonly keepAliveMs: number;
  private readonly open = new Set<() => void>();

  constructor(
    private readonly live: LiveConnections,
    config: ConfigService<AppConfig, true>,
  ) {
    this.keepAliveMs = config.get('streams', { infer: true }).keepAliveMs;
  }

  /** Streams open on this instance. */
  count(): number {
    return this.open.size;
  }

  /**
   * Serves what `openSource` gives as text/event-stream. Errors before the first byte (a cap,
   * an unknown game) are thrown, so they become problem documents like any REST error.
   */
  async serve<T>(res: Response, player: AuthenticatedPlayer, openSource: OpenStream<T>, message: (item: T) => SseMessage): Promise<void> {
    const stop = new AbortController();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      stop.abort();
      if (!res.writableEnded) res.end();
    };
    const connection = this.live.open(player, clientAddress(res.req.ip), {
      // A revoked or expired token: say why before closing (the client should not retry as is).
      close: (_code, reason) => {
        if (res.headersSent && !res.writableEnded) res.write(frame('error', errorData(reason)));
        end();
      },
      subscriptions: () => 1,
    });
    // Deferred: a revoke aborts the connection just before it calls `close` above, which says why.
    const onConnectionGone = () => queueMicrotask(end);
    const onClientGone = () => end();
    connection.signal.addEventListener('abort', onConnectionGone, { once: true });
    res.once('close', onClientGone);
    this.open.add(end);
    let keepAlive: NodeJS.Timeout | null = null;
    let source: AsyncIterator<T> | null = null;
    let started = false;
    // A client that asked for what comes "from now on" waits for this line before it counts on it.
    const ready = () => {
      if (!started && res.headersSent && !ended) res.write(': ready\n\n');
      started = true;
    };
    try {
      this.live.admit(connection);
      source = await openSource(stop.signal, ready);
      if (stop.signal.aborted) return;
      if (!source) {
        res.status(204).end();
        return;
      }
      res.status(200);
      res.setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('x-accel-buffering', 'no'); // nginx would otherwise hold events back in its buffer
      res.flushHeaders();
      if (started) res.write(': ready\n\n'); // it said so before its headers
      keepAlive = setInterval(() => {
        if (!ended) res.write(': keep-alive\n\n');
      }, this.keepAliveMs);
      await this.pump(res, source, message, stop.signal);
    } finally {
      if (keepAlive) clearInterval(keepAlive);
      this.open.delete(end);
      connection.signal.removeEventListener('abort', onConnectionGone);
      res.off('close', onClientGone);
      this.live.closed(connection);
      if (source) void source.return?.().catch(() => undefined);
      if (res.headersSent) end();
      else ended = true; // an error before the headers: the problem filter answers
    }
  }

  /** The server is going down: every stream ends now rather than when Node gives up on it. */
  onModuleDestroy(): void {
    this.endAll();
  }

  /**
   * Ends every open stream. The application calls it first thing on shutdown: Apollo's drain
   * (GraphQLModule's destroy hook) waits up to 10 s for open HTTP requests, streams included.
   */
  endAll(): void {
    for (const end of [...this.open]) end();
  }

  private async pump<T>(res: Response, source: AsyncIterator<T>, message: (item: T) => SseMessage, signal: AbortSignal): Promise<void> {
    try {
      for (;;) {
        const next = await source.next();
        if (next.done || signal.aborted) return;
        const m = message(next.value);
        // A client that stops reading holds its own stream back, nobody else's.
        // (The client leaving aborts `signal`, which ends this wait.)
        if (!res.write(frame(m.event, m.data, m.id))) await once(res, 'drain', { signal }).catch(() => undefined);
      }
    } catch (error) {
      if (signal.aborted) return;
      const domain = toDomainError(error);
      if (domain.code === 'INTERNAL') this.logger.error(error);
      if (!res.writableEnded) res.write(frame('error', { code: domain.code, message: domain.message }));
    }
  }
}

function frame(event: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** "UNAUTHENTICATED: this API token has been revoked" as an error event's data. */
function errorData(reason: string): { code: string; message: string } {
  const at = reason.indexOf(': ');
  return at > 0 ? { code: reason.slice(0, at), message: reason.slice(at + 2) } : { code: 'UNAUTHENTICATED', message: reason };
}
