import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { describeError, describeFormError, onLinkState, onReconnected, type LinkState } from './api';
import i18n from './i18n';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  /** Fetch again; calls made while one is under way coalesce into one more after it. */
  reload: () => void;
}

/**
 * Data from the API for a screen. A failed load (the server restarting, a dropped connection)
 * is retried every few seconds, and again whenever the live socket reconnects.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const state = useRef({ running: false, again: false, generation: 0 });
  const loadRef = useRef(load);
  loadRef.current = load;

  const run = useCallback(async () => {
    const s = state.current;
    if (s.running) {
      s.again = true;
      return;
    }
    s.running = true;
    const generation = s.generation;
    try {
      do {
        s.again = false;
        try {
          const value = await loadRef.current();
          if (generation !== s.generation) return;
          setData(value);
          setError(null);
        } catch (e) {
          if (generation !== s.generation) return;
          setError(describeError(e));
        }
      } while (s.again);
    } finally {
      if (generation === s.generation) {
        s.running = false;
        setLoading(false);
      }
    }
  }, []);

  useEffect(() => {
    const s = state.current;
    s.generation++;
    s.running = false;
    s.again = false;
    setData(null);
    setError(null);
    setLoading(true);
    void run();
    return onReconnected(() => void run());
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  // Retry a failed load on a timer: the server may be restarting.
  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => void run(), 2000);
    return () => clearTimeout(timer);
  }, [error, run]);

  const reload = useCallback(() => void run(), [run]);
  return { data, error, loading, reload };
}

export function useLinkState(): LinkState {
  const [state, setState] = useState<LinkState>('idle');
  useEffect(() => onLinkState(setState), []);
  return state;
}

/** The current time, ticking every second (deadlines count down). */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function timeLeft(deadline: string, now: number): string {
  const ms = Date.parse(deadline) - now;
  if (ms <= 0) return i18n.t('common:timeLeft.up');
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return i18n.t('common:timeLeft.days', { d, h });
  if (h > 0) return i18n.t('common:timeLeft.hours', { h, m });
  return i18n.t('common:timeLeft.minutes', { clock: `${m}:${String(sec).padStart(2, '0')}` });
}

/**
 * What a form or button does: `busy` while it runs, its failure in words in `error`. With
 * `staysBusy` a success leaves `busy` on: the screen is about to change (a sign-in), so nothing is
 * sent twice meanwhile.
 */
export function useAction(action: () => Promise<void>, options: { describe?: (error: unknown) => string; staysBusy?: boolean } = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
      if (!options.staysBusy) setBusy(false);
    } catch (e) {
      setError((options.describe ?? describeFormError)(e));
      setBusy(false);
    }
  };
  return { busy, error, run };
}
