// Cursor paging as async iterators: every list of the API pages the same way (first, after;
// nextCursor, hasMore), so one loop serves them all.

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Every item of every page, fetched a page at a time as the caller reads on (a `break` stops fetching). */
export async function* pages<T>(fetchPage: (after: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let after: string | undefined;
  for (;;) {
    const page = await fetchPage(after);
    yield* page.items;
    if (!page.hasMore || page.nextCursor === null) return;
    after = page.nextCursor;
  }
}
