import { Injectable } from '@nestjs/common';
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
}

/** The system's resolver, every address in the order it gives them. */
export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * The one way a webhook reaches the network: judge the URL and its addresses, then POST to the
 * address judged. `resolve` and `open` are fields so that tests can stub the resolver and count
 * the connections opened.
 */
@Injectable()
export class WebhookTransport {
  resolve: Resolver = systemResolver;

  /** Opens one connection and request (http or https by the URL's scheme). */
  open(url: URL, options: http.RequestOptions): http.ClientRequest {
    return url.protocol === 'https:' ? https.request(options) : http.request(options);
  }

  /** Judges `rawUrl` as the policy says, resolving its host, within `timeoutMs`. */
  vet(rawUrl: string, policy: UrlPolicy, timeoutMs: number): Promise<VettedTarget> {
    return withTimeout(vetUrl(rawUrl, policy, this.resolve), timeoutMs, () => new UrlUnresolved(`resolving the host took over ${timeoutMs} ms`));
  }

  /**
   * One POST of `body`, all of it (resolving, connecting, sending, the answer) within `timeoutMs`.
   * Never throws: a refusal, a failure or a non-2xx answer is an outcome with its reason. A
   * redirect is not followed: it is an answer like any other non-2xx.
   */
  async post(rawUrl: string, headers: Record<string, string>, body: string, policy: UrlPolicy, timeoutMs: number): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const target = await withTimeout(vetUrl(rawUrl, policy, this.resolve), timeoutMs, () => new TimedOut());
      const { statusCode, location } = await this.send(target, headers, body, controller.signal);
      const ok = statusCode >= 200 && statusCode < 300;
      const error = ok
        ? null
        : statusCode >= 300 && statusCode < 400
          ? `HTTP ${statusCode}: redirects are not followed${location ? ` (to ${location.slice(0, 200)})` : ''}`
          : `HTTP ${statusCode}`;
      return { ok, statusCode, error, durationMs: elapsed() };
    } catch (error) {
      return { ok: false, statusCode: null, error: describeFailure(error, controller.signal.aborted, timeoutMs), durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The answer's status once its body has been read (at most MAX_RESPONSE_BYTES of it). */
  private send(target: VettedTarget, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<{ statusCode: number; location: string | null }> {
    const { url, address } = target;
    return new Promise((resolve, reject) => {
      const request = this.open(url, {
        method: 'POST',
        protocol: url.protocol,
        hostname: hostOf(url),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        // The vetted address and nothing else: a second DNS answer cannot redirect the connection.
        // TLS still checks the certificate against the host name.
        lookup: pinnedLookup(address),
        // A fresh connection each time: a pooled one may have been opened for another address.
        agent: false,
        signal,
      });
      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0;
        const location = typeof response.headers.location === 'string' ? response.headers.location : null;
        const done = () => {
          resolve({ statusCode, location });
          request.destroy();
        };
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) done(); // enough: the status is what counts
        });
        response.on('end', done);
        // The answer's status is known even if its body then breaks off or times out.
        response.on('error', done);
        response.on('close', done);
      });
      request.on('error', reject);
      request.end(body);
    });
  }
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
