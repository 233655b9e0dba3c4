// Cards as the API writes them ("AS", "TD", "7C") and as a player reads them: "Ace of spades",
// "A♠". The suit is always named in text or by its symbol, never by colour alone.
const RANKS = '23456789TJQKA';
const RANK_NAMES: Record<string, string> = { T: 'Ten', J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' };
const NUMBER_NAMES = ['Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine'];
export const SUIT_ORDER = ['C', 'D', 'H', 'S'] as const;
const SUIT_NAMES: Record<string, string> = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const SUIT_SYMBOLS: Record<string, string> = { C: '♣', D: '♦', H: '♥', S: '♠' };
const SUIT_LETTER: Record<string, string> = { clubs: 'C', diamonds: 'D', hearts: 'H', spades: 'S' };

export function rankName(card: string): string {
  const rank = card[0];
  return RANK_NAMES[rank] ?? NUMBER_NAMES[RANKS.indexOf(rank)] ?? rank;
}

/** "Ace of spades". */
export function cardName(card: string): string {
  return `${rankName(card)} of ${SUIT_NAMES[card[1]] ?? card[1]}`;
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
