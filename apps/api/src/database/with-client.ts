import pg from 'pg';

/** Runs `use` on a short-lived connection to `url`; pg would otherwise wait forever on a stuck server. */
export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, query_timeout: 60_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
