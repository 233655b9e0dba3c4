// Server-sent events read from a fetch body (EventSource cannot send an Authorization header):
// the parsing rules of the HTML standard's event stream, nothing more.

export interface SseMessage {
  /** The `id:` of this event, when it has one (the resume point). */
  id?: string;
  /** The `event:` name; `message` when none. */
  event: string;
  data: string;
}

/**
 * The events of a text/event-stream body, one by one. Comments (`: keep-alive`, `: ready`) are no
 * events: skipped, each told to `onComment` (its text without the colon and one space) when given.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal, onComment?: (text: string) => void): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const abort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', abort, { once: true });
  let buffer = '';
  let id: string | undefined;
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A CR at the end of what came so far may be the first half of a CRLF: wait for the next chunk.
        if (end === buffer.length - 1 && buffer[end] === '\r') break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { id, event: event || 'message', data: data.join('\n') };
          id = undefined;
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) {
          onComment?.(line.slice(line[1] === ' ' ? 2 : 1));
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) id = value;
      }
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    // Leaving early (a break, an error) closes the connection too.
    void reader.cancel().catch(() => undefined);
  }
}
