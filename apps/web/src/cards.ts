// Cards as the API writes them ("AS", "TD", "7C") and as a player reads them: "Ace of spades"
// ("Pik Ass", "スペードのエース", "As pik": the `game` namespace's card names in the interface's
// language), "A♠". The suit is always named in text or by its symbol, never by colour alone.
import i18n from './i18n';

const RANKS = '23456789TJQKA';
export const SUIT_ORDER = ['C', 'D', 'H', 'S'] as const;
const SUIT_NAMES: Record<string, string> = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const SUIT_SYMBOLS: Record<string, string> = { C: '♣', D: '♦', H: '♥', S: '♠' };
const SUIT_LETTER: Record<string, string> = { clubs: 'C', diamonds: 'D', hearts: 'H', spades: 'S' };

/** "Ace", "Ass", "エース", "As". */
export function rankName(card: string): string {
  return i18n.t(`game:card.rank.${card[0]}`, { defaultValue: card[0] });
}

/** "Ace of spades", "Pik Ass", "スペードのエース", "As pik": a plain function, not a hook (a component calling it re-renders on a language change through its own useTranslation). */
export function cardName(card: string): string {
  return i18n.t('game:card.name', { rank: rankName(card), suit: i18n.t(`game:card.suit.${card[1]}`, { defaultValue: card[1] }) });
}

/** "A♠", "10♥": the short face, with the ten written out as players write it. */
export function cardFace(card: string): string {
  return `${card[0] === 'T' ? '10' : card[0]}${SUIT_SYMBOLS[card[1]] ?? card[1]}`;
}

export function suitOf(card: string): string {
  return SUIT_NAMES[card[1]] ?? card[1];
}

export function suitSymbol(suit: string): string {
  return SUIT_SYMBOLS[SUIT_LETTER[suit] ?? suit] ?? '';
}

/** Clubs, diamonds, hearts, spades; low to high within a suit (the rules' fixed order). */
export function sortCards(cards: readonly string[]): string[] {
  const key = (card: string) => SUIT_ORDER.indexOf(card[1] as (typeof SUIT_ORDER)[number]) * 100 + RANKS.indexOf(card[0]);
  return [...cards].sort((a, b) => key(a) - key(b));
}
