import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { hostOf, UrlRefused, UrlUnresolved, vetUrl, type ResolvedAddress, type Resolver, type UrlPolicy, type VettedTarget } from './url-safety.js';

/** What is read of an answer's body at most; then the connection is dropped. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export const USER_AGENT = 'Mizerka-Webhooks/1 (+https://www.standardwebhooks.com)';

/** How one attempt went. `statusCode` is null when no answer came. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** No answer within the time-out: what trips an endpoint's circuit breaker. */
  timedOut: boolean;
}

/** One request of a batch: its body, and its headers for the time it is sent (Unix seconds). */
export interface OutgoingRequest {
  body: string;
  headers: (timestamp: number) => Record<string, string>;
}

/** How one request of a batch went, and when it began. */
export interface SentAttempt extends AttemptOutcome {
  at: Date;
}

/** Keep-alive connections kept for this many endpoints at most (the least recently used go first). */
const MAX_AGENTS = 1000;
/** An idle keep-alive connection is closed after this long (sooner if the receiver says so). */
const IDLE_SOCKET_MS = 4000;

/** The system's resolver, every address in the order it gives them. */
export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** Where a webhook meets the network: how names resolve, and how one connection and request open. */
export interface WebhookNetwork {
  resolve: Resolver;
  /** Opens one connection and request (http or https by the URL's scheme). */
  open(url: URL, options: http.RequestOptions): http.ClientRequest;
}

/** The machine's own DNS and sockets. */
export const systemNetwork: WebhookNetwork = {
  resolve: systemResolver,
  open: (url, options) => (url.protocol === 'https:' ? https.request(options) : http.request(options)),
};

/**
 * A WebhookNetwork other than the system's: provided (by a test) through createApp's providers,
 * so that names resolve through a stub and the connections opened can be counted.
 */
export const WEBHOOK_NETWORK = Symbol('WEBHOOK_NETWORK');

/**
 * The one way a webhook reaches the network: judge the URL and its addresses, then POST to the
 * address judged.
 */
@Injectable()
export class WebhookTransport implements OnApplicationShutdown {
  private readonly network: WebhookNetwork;
  /** Per endpoint, the keep-alive agent of the origin and address last judged; its sockets go only there. */
  private readonly agents = new Map<string, { origin: string; address: string; agent: http.Agent }>();

  constructor(@Optional() @Inject(WEBHOOK_NETWORK) network: WebhookNetwork | null = null) {
    this.network = network ?? systemNetwork;
  }

  /** Judges `rawUrl` as the policy says, resolving its host, within `timeoutMs`. */
  vet(rawUrl: string, policy: UrlPolicy, timeoutMs: number): Promise<VettedTarget> {
    return withTimeout(vetUrl(rawUrl, policy, this.network.resolve), timeoutMs, () => new UrlUnresolved(`resolving the host took over ${timeoutMs} ms`));
  }

  onApplicationShutdown(): void {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  /**
   * POSTs a batch to one URL (an endpoint's due deliveries): the URL and its addresses are judged
   * once, before any connection, then the requests go `concurrency` at a time over keep-alive
   * connections to the address judged (the endpoint's agent, made again whenever the URL's origin
   * or the address judged changes). Each request has `timeoutMs` for all of it, the judging
   * included for the first ones. Never throws: each request gets its outcome, in order. A refused
   * or unresolved URL fails every request of the batch, connecting nowhere. Once one request has
   * timed out, no other is begun (the receiver is not answering: waiting out the time-out once per
   * request would hold its lanes for nothing); those not begun have no outcome (undefined).
   */
  async postAll(
    key: string,
    rawUrl: string,
    requests: readonly OutgoingRequest[],
    policy: UrlPolicy,
    timeoutMs: number,
    concurrency: number,
  ): Promise<(SentAttempt | undefined)[]> {
    const at = new Date();
    const started = performance.now();
    let target: VettedTarget;
    try {
      target = await withTimeout(vetUrl(rawUrl, policy, this.network.resolve), timeoutMs, () => new TimedOut());
    } catch (error) {
      const outcome = {
        ok: false,
        statusCode: null,
        error: describeFailure(error, false, timeoutMs),
        durationMs: Math.round(performance.now() - started),
        timedOut: error instanceof TimedOut,
      };
      return requests.map(() => ({ ...outcome, at }));
    }
    const judgedMs = performance.now() - started;
    const agent = this.agentFor(key, target, concurrency);
    const results = new Array<SentAttempt | undefined>(requests.length);
    let next = 0;
    let timedOut = false;
    const lane = async () => {
      while (next < requests.length && !timedOut) {
        const i = next++;
        const request = requests[i]!;
        // The first requests spent part of their time on judging the URL.
        const budget = i < concurrency ? Math.max(1, Math.round(timeoutMs - judgedMs)) : timeoutMs;
        const sentAt = new Date();
        const outcome = await this.attempt(target, agent, request.headers(Math.floor(sentAt.getTime() / 1000)), request.body, budget, timeoutMs);
        results[i] = { ...outcome, durationMs: outcome.durationMs + (i < concurrency ? Math.round(judgedMs) : 0), at: i < concurrency ? at : sentAt };
        if (outcome.timedOut) timedOut = true;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, requests.length)) }, lane));
    return results;
  }

  /** The endpoint's agent for this origin and address, a new one (the old closed) when either changed. */
  private agentFor(key: string, target: VettedTarget, concurrency: number): http.Agent {
    const origin = target.url.origin;
    const known = this.agents.get(key);
    this.agents.delete(key); // re-inserted last: the map's order is least recently used first
    if (known && known.origin === origin && known.address === target.address.address) {
      this.agents.set(key, known);
      return known.agent;
    }
    known?.agent.destroy();
    const options = { keepAlive: true, maxSockets: concurrency, timeout: IDLE_SOCKET_MS, lookup: pinnedLookup(target.address) };
    const agent = target.url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    this.agents.set(key, { origin, address: target.address.address, agent });
    while (this.agents.size > MAX_AGENTS) {
      const [oldest, entry] = this.agents.entries().next().value as [string, { agent: http.Agent }];
      entry.agent.destroy();
      this.agents.delete(oldest);
    }
    return agent;
  }

  /** One request of a batch to the judged target, within `budgetMs`; never throws. */
  private async attempt(
    target: VettedTarget,
    agent: http.Agent,
    headers: Record<string, string>,
    body: string,
    budgetMs: number,
    timeoutMs: number,
  ): Promise<AttemptOutcome> {
    const started = performance.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), budgetMs);
    try {
      const { statusCode, location } = await this.send(target, headers, body, controller.signal, agent);
      return { ...outcomeOf(statusCode, location), durationMs: Math.round(performance.now() - started), timedOut: false };
    } catch (error) {
      const timedOut = controller.signal.aborted;
      return { ok: false, statusCode: null, error: describeFailure(error, timedOut, timeoutMs), durationMs: Math.round(performance.now() - started), timedOut };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One POST of `body`, all of it (resolving, connecting, sending, the answer) within `timeoutMs`.
   * Never throws: a refusal, a failure or a non-2xx answer is an outcome with its reason. A
   * redirect is not followed: it is an answer like any other non-2xx.
   */
  async post(rawUrl: string, headers: Record<string, string>, body: string | Buffer, policy: UrlPolicy, timeoutMs: number): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const target = await withTimeout(vetUrl(rawUrl, policy, this.network.resolve), timeoutMs, () => new TimedOut());
      const { statusCode, location } = await this.send(target, headers, body, controller.signal, false);
      return { ...outcomeOf(statusCode, location), durationMs: elapsed(), timedOut: false };
    } catch (error) {
      const timedOut = error instanceof TimedOut || controller.signal.aborted;
      return { ok: false, statusCode: null, error: describeFailure(error, controller.signal.aborted, timeoutMs), durationMs: elapsed(), timedOut };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The answer's status once its body has been read (at most MAX_RESPONSE_BYTES of it). */
  private send(
    target: VettedTarget,
    headers: Record<string, string>,
    body: string | Buffer,
    signal: AbortSignal,
    agent: http.Agent | false,
  ): Promise<{ statusCode: number; location: string | null }> {
    const { url, address } = target;
    return new Promise((resolve, reject) => {
      const request = this.network.open(url, {
        method: 'POST',
        protocol: url.protocol,
        hostname: hostOf(url),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        // The vetted address and nothing else: a second DNS answer cannot redirect the connection.
        // TLS still checks the certificate against the host name.
        lookup: pinnedLookup(address),
        // A fresh connection, or one of the endpoint's agent, whose every connection went to this
        // same address (a new agent is made when the address judged changes).
        agent,
        signal,
      });
      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0;
        const location = typeof response.headers.location === 'string' ? response.headers.location : null;
        // Read to its end, the connection may serve the next request; else it is dropped.
        let finished = false;
        const done = (keep: boolean) => {
          if (finished) return;
          finished = true;
          resolve({ statusCode, location });
          if (!keep) request.destroy();
        };
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) done(false); // enough: the status is what counts
        });
        response.on('end', () => done(true));
        // The answer's status is known even if its body then breaks off or times out.
        response.on('error', () => done(false));
        response.on('close', () => done(false));
      });
      request.on('error', reject);
      request.end(body);
    });
  }
}

/** A finished answer's outcome: a 2xx is a delivery; a redirect is not followed. */
function outcomeOf(statusCode: number, location: string | null): Omit<AttemptOutcome, 'durationMs' | 'timedOut'> {
  const ok = statusCode >= 200 && statusCode < 300;
  const error = ok
    ? null
    : statusCode >= 300 && statusCode < 400
      ? `HTTP ${statusCode}: redirects are not followed${location ? ` (to ${location.slice(0, 200)})` : ''}`
      : `HTTP ${statusCode}`;
  return { ok, statusCode, error };
}

/** A `lookup` for http(s).request that answers with the address already judged. */
function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  }) as unknown as LookupFunction;
}

class TimedOut extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A failed attempt's reason, as its owner reads it in the delivery log. */
function describeFailure(error: unknown, aborted: boolean, timeoutMs: number): string {
  if (error instanceof UrlRefused) return `refused before connecting: the URL ${error.message}`;
  if (error instanceof UrlUnresolved) return `DNS: ${error.message}`;
  if (error instanceof TimedOut || aborted) return `timed out after ${timeoutMs} ms`;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return (typeof code === 'string' ? `${code}: ${message}` : message).slice(0, 500);
}
