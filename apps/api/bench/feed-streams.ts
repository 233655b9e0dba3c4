// Players' feed streams for the benchmarks: many `GET /api/v1/me/events` server-sent event streams,
// each on its own socket, parsed as they arrive; every `yourTurn` is stamped with the wall-clock
// time it was read (performance.timeOrigin + now, sub-millisecond) for the lag against its commit.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** A `yourTurn` as one stream read it. */
export interface Delivery {
  stream: number;
  gameId: string;
  seq: number;
  /** Wall-clock ms (fractional) when the event's last line was read. */
  at: number;
}

export interface FeedStreams {
  /** yourTurn events read so far, by every stream. */
  deliveries: Delivery[];
  /** Other events read, by type. */
  others: Record<string, number>;
  /** Streams that ended or failed after opening, by reason. */
  failures: Record<string, number>;
  close(): void;
}

export const wallClock = (): number => performance.timeOrigin + performance.now();

/**
 * Opens one stream per token in `tokens` (a token may repeat: several streams of one player) and
 * resolves once every one has its 200 and headers; rejects on the first refusal.
 */
export async function openFeedStreams(baseUrl: string, tokens: string[], opening = 50): Promise<FeedStreams> {
  const url = new URL('/api/v1/me/events', baseUrl);
  const streams: FeedStreams = { deliveries: [], others: {}, failures: {}, close: () => undefined };
  const requests: http.ClientRequest[] = [];
  let closing = false;
  const fail = (reason: string) => {
    if (!closing) streams.failures[reason] = (streams.failures[reason] ?? 0) + 1;
  };
  const open = (index: number, token: string) =>
    new Promise<void>((done, reject) => {
      const req = http.get(
        { host: url.hostname, port: Number(url.port), path: url.pathname, agent: false, headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
        (res) => {
          if (res.statusCode !== 200) {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => reject(new Error(`stream ${index}: HTTP ${res.statusCode} ${body.slice(0, 300)}`)));
            return;
          }
          done();
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk: string) => {
            const at = wallClock();
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              let type = 'message';
              let data = '';
              for (const line of block.split('\n')) {
                if (line.startsWith('event: ')) type = line.slice(7);
                else if (line.startsWith('data: ')) data += line.slice(6);
              }
              if (data === '') continue; // a keep-alive comment
              if (type === 'yourTurn') {
                const event = JSON.parse(data) as { gameId: string; seq: number };
                streams.deliveries.push({ stream: index, gameId: event.gameId, seq: event.seq, at });
              } else {
                streams.others[type] = (streams.others[type] ?? 0) + 1;
              }
            }
          });
          res.on('end', () => fail('ended'));
          res.on('error', (error) => fail(error.message));
        },
      );
      req.on('error', (error) => {
        fail(error.message);
        reject(error);
      });
      requests.push(req);
    });
  let next = 0;
  const worker = async () => {
    while (next < tokens.length) {
      const index = next++;
      await open(index, tokens[index]);
    }
  };
  streams.close = () => {
    closing = true;
    for (const req of requests) req.destroy();
  };
  try {
    await Promise.all(Array.from({ length: Math.min(opening, tokens.length) }, worker));
  } catch (error) {
    streams.close();
    throw error;
  }
  return streams;
}
