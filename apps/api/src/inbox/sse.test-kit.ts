/** A small reader of server-sent events over fetch, for tests. */

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  /** Comment lines (`: keep-alive`), without the colon. */
  comments: string[];
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The body when the answer was not a stream (a problem document). */
  body: unknown;
  /** The next frame with an event (comments are collected on the side), or null once the stream ended. */
  next(timeoutMs?: number): Promise<SseFrame | null>;
  /** `count` events, failing after `timeoutMs`. */
  take(count: number, timeoutMs?: number): Promise<SseFrame[]>;
  comments: string[];
  /** Resolves at the server's `: ready` (the stream follows: what is committed from now on reaches it); fails after `timeoutMs` or when the stream ends first. */
  ready(timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  const waiters: (() => void)[] = [];
  let done = false;
  const notify = () => waiters.splice(0).forEach((w) => w());
  let body: unknown = null;
  let ended: Promise<void> = Promise.resolve();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    ended = (async () => {
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { value, done: over } = await reader.read();
          if (over) break;
          buffer += decoder.decode(value, { stream: true });
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const frame: SseFrame = { comments: [] };
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) frame.comments.push(line.slice(1).trim());
              else {
                const colon = line.indexOf(':');
                const field = line.slice(0, colon);
                const text = line.slice(colon + 1).replace(/^ /, '');
                if (field === 'id' || field === 'event' || field === 'data') frame[field] = text;
              }
            }
            comments.push(...frame.comments);
            if (frame.event !== undefined || frame.data !== undefined) frames.push(frame);
            notify();
          }
        }
      } catch {
        // aborted by the test
      } finally {
        done = true;
        notify();
      }
    })();
  } else {
    const text = await response.text();
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = text;
    }
    done = true;
  }
  const next = async (timeoutMs = 5_000): Promise<SseFrame | null> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (frames.length > 0) return frames.shift()!;
      if (done) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no server-sent event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    body,
    next,
    take: async (count, timeoutMs = 5_000) => {
      const out: SseFrame[] = [];
      while (out.length < count) {
        const frame = await next(timeoutMs);
        if (!frame) throw new Error(`the stream ended after ${out.length} of ${count} events`);
        out.push(frame);
      }
      return out;
    },
    comments,
    ready: async (timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!comments.includes('ready')) {
        if (done) throw new Error('the stream ended before saying it was ready');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no ": ready" within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    ended,
    close: () => abort.abort(),
  };
}
