// The deck, drawn here as inline SVG (no image files, no licence to track, nothing the content
// security policy would refuse): a white card with its rank and suit in two opposite corners and
// the suit large in the middle; a back of crossed lines for the talon and the other seats' cards.
// The colour comes from CSS (currentColor): red and black, or four colours when chosen.
import { useSyncExternalStore } from 'react';

const SUIT_SYMBOLS: Record<string, string> = { C: '♣', D: '♦', H: '♥', S: '♠' };

/** "10" for a ten, as players write it; else the rank's letter or digit. */
export function rankLabel(card: string): string {
  return card[0] === 'T' ? '10' : card[0];
}

/** A card's face. Decorative: the button or list item holding it carries the card's name. */
/** The rank over the suit in a card's corner (drawn again, turned, in the opposite corner). */
function CornerIndex({ rank, suit }: { rank: string; suit: string }) {
  return (
    <>
      <text x="4" y="16" className="pc-rank">
        {rank}
      </text>
      <text x="4" y="29" className="pc-suit">
        {suit}
      </text>
    </>
  );
}

export function PlayingCard({ card }: { card: string }) {
  const rank = rankLabel(card);
  const suit = SUIT_SYMBOLS[card[1]] ?? card[1];
  return (
    <svg className={`pc pc-${card[1]}`} viewBox="0 0 60 84" aria-hidden="true" focusable="false">
      <rect className="pc-paper" x="0.75" y="0.75" width="58.5" height="82.5" rx="5" />
      <g className="pc-ink">
        <CornerIndex rank={rank} suit={suit} />
        <text x="33" y="55" className="pc-pip" textAnchor="middle">
          {suit}
        </text>
        <g transform="rotate(180 30 42)">
          <CornerIndex rank={rank} suit={suit} />
        </g>
      </g>
    </svg>
  );
}

/** A card face down. */
export function CardBack() {
  return (
    <svg className="pc pc-back" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
      <rect className="pc-paper" x="0.75" y="0.75" width="58.5" height="82.5" rx="5" />
      <rect className="pc-back-field" x="5" y="5" width="50" height="74" rx="3" />
      <path className="pc-back-lines" d="M5 20 L20 5 M5 40 L40 5 M5 60 L55 10 M5 79 L55 29 M20 79 L55 44 M40 79 L55 64 M5 64 L20 79 M5 44 L40 79 M5 24 L55 74 M10 5 L55 50 M30 5 L55 30 M50 5 L55 10" />
    </svg>
  );
}

// The table's settings, kept in this browser (localStorage) and shared by every open table.
export const SETTINGS = {
  fourColour: 'mizerka.fourColourDeck',
  trickPause: 'mizerka.trickPauseMs',
  summarySeconds: 'mizerka.dealSummarySeconds',
} as const;
export const TRICK_PAUSES = [0, 500, 1000, 1500, 2500] as const;
const DEFAULTS: Record<string, string> = { [SETTINGS.fourColour]: 'false', [SETTINGS.trickPause]: '1000', [SETTINGS.summarySeconds]: '6' };

const listeners = new Set<() => void>();
function read(key: string): string {
  try {
    return localStorage.getItem(key) ?? DEFAULTS[key];
  } catch {
    return DEFAULTS[key];
  }
}

export function setSetting(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode): the setting lasts until the page is left.
  }
  for (const listener of listeners) listener();
}

/** A table setting's value now, re-rendering when it changes. */
export function useSetting(key: string): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      const onStorage = (e: StorageEvent) => e.key === key && listener();
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('storage', onStorage);
      };
    },
    () => read(key),
  );
}

/** A number setting, bounded (a hand-edited store cannot make the pause last a minute). */
export function numberSetting(value: string, min: number, max: number, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}
