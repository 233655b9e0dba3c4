// Lists that page by cursor and stay live: the lobby list and the games being played. The API has
// no push for public lists, so the page on screen is fetched again every LIVE_MS while the tab is
// visible (and at once when it becomes visible again): new lobbies appear without a reload, and a
// page read by cursor stays in place.
import { useCallback, useEffect, useState } from 'react';

export const LIVE_MS = 5000;

/** Reads `reload` again every `ms` while the document is visible, and when it becomes visible. */
export function useLiveReload(reload: () => void, ms = LIVE_MS) {
  useEffect(() => {
    const visible = () => document.visibilityState === 'visible';
    const timer = setInterval(() => {
      if (visible()) reload();
    }, ms);
    const onVisible = () => {
      if (visible()) reload();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [reload, ms]);
}

export interface CursorPages {
  /** The cursor of the page shown (null: the first page). */
  after: string | null;
  /** 1 for the first page. */
  page: number;
  next: (cursor: string) => void;
  previous: () => void;
}

/** The cursors of the pages read so far, back to the first one when `resetKey` changes (a new filter). */
export function useCursorPages(resetKey: string): CursorPages {
  const [state, setState] = useState<{ key: string; cursors: string[] }>({ key: resetKey, cursors: [] });
  const cursors = state.key === resetKey ? state.cursors : [];
  const next = useCallback((cursor: string) => setState((s) => ({ key: resetKey, cursors: [...(s.key === resetKey ? s.cursors : []), cursor] })), [resetKey]);
  const previous = useCallback(() => setState((s) => ({ key: resetKey, cursors: (s.key === resetKey ? s.cursors : []).slice(0, -1) })), [resetKey]);
  return { after: cursors[cursors.length - 1] ?? null, page: cursors.length + 1, next, previous };
}
