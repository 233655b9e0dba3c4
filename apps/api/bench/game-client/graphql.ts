// GraphQL over HTTP: the shapes of an answer, the transport the calls go through, and one
// transport on node:http with a keep-alive agent (the benchmark's; the end-to-end tests bring
// their own fetch-based one, which records what it saw).
import http from 'node:http';

export interface GqlError {
  message: string;
  path?: unknown;
  /** `code` always; `rule` on an illegal move, `version` on a version CONFLICT. */
  extensions?: { code?: string; rule?: string; version?: number; [key: string]: unknown };
}

/** A GraphQL answer as the server sent it; `status` when the transport reports the HTTP status. */
export interface GqlResult<T = any> {
  data?: T | null;
  errors?: GqlError[];
  status?: number;
}

/** Anything that can send a GraphQL request with an optional bearer token. */
export interface GraphQLTransport {
  gql<T = any>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GqlResult<T>>;
}

/**
 * The code of an answer's first error (`extensions.code`), or undefined when it has none. With a
 * transport that reports the HTTP status, an error without a code or a non-200 answer gives
 * `HTTP_<status>`.
 */
export function errorCode(result: GqlResult): string | undefined {
  const first = result.errors?.[0];
  const http = result.status === undefined ? undefined : `HTTP_${result.status}`;
  if (first) return first.extensions?.code ?? http;
  return result.status !== undefined && result.status !== 200 ? http : undefined;
}

/** The data of an answer's field, or an error naming the field and the errors. */
export function data<T = any>(result: GqlResult<Record<string, T>>, field: string): T {
  if (result.errors?.length || !result.data) throw new Error(`${field}: ${JSON.stringify(result.errors ?? result)}`);
  return result.data[field];
}

export interface HttpTransport extends GraphQLTransport {
  /** Closes the kept-alive sockets. */
  close(): void;
}

/**
 * POST `<baseUrl>/graphql` with node:http and a keep-alive agent of `sockets` connections (for
 * many clients at once, at less CPU per request than fetch). A body that is not JSON becomes an
 * error with code `HTTP_<status>`; a network error rejects.
 */
export function httpTransport(baseUrl: string, options: { sockets: number }): HttpTransport {
  const url = new URL(baseUrl);
  const path = `${url.pathname.replace(/\/$/, '')}/graphql`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.sockets, maxFreeSockets: options.sockets });
  return {
    gql<T>(query: string, variables: Record<string, unknown> = {}, token?: string | null): Promise<GqlResult<T>> {
      const body = JSON.stringify({ query, variables });
      return new Promise((done, fail) => {
        const req = http.request(
          {
            host: url.hostname,
            port: Number(url.port),
            path,
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', fail);
            res.on('end', () => {
              const status = res.statusCode ?? 0;
              const text = Buffer.concat(chunks).toString('utf8');
              try {
                done({ ...(JSON.parse(text) as GqlResult<T>), status });
              } catch {
                done({ status, errors: [{ message: text.slice(0, 200), extensions: { code: `HTTP_${status}` } }] });
              }
            });
          },
        );
        req.on('error', fail);
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
