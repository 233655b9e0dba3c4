import { useTranslation } from 'react-i18next';
import { cardFace, cardName, suitOf } from '../cards';
import { PlayingCard } from './PlayingCard';

const RANKS = '23456789TJQKA';
/** The most cards the fan places (styles.css has a class per count and per place up to it). */
const MAX_FAN = 16;
const BLACK = ['S', 'C'];
const RED = ['H', 'D'];

/**
 * The hand's order on the table: by suit, the colours alternating (♠ ♥ ♣ ♦, and with a suit
 * missing the others still alternate as far as they can), low to high within a suit.
 */
export function handOrder(cards: readonly string[]): string[] {
  const present = (suits: string[]) => suits.filter((suit) => cards.some((card) => card[1] === suit));
  const blacks = present(BLACK);
  const reds = present(RED);
  const [first, second] = blacks.length >= reds.length ? [blacks, reds] : [reds, blacks];
  const order: string[] = [];
  for (let i = 0; i < first.length; i++) {
    order.push(first[i]);
    if (second[i]) order.push(second[i]);
  }
  const key = (card: string) => order.indexOf(card[1]) * 100 + RANKS.indexOf(card[0]);
  return [...cards].sort((a, b) => key(a) - key(b));
}

/**
 * The hand, fanned: cards as buttons overlapping as the width needs (each card's visible strip
 * shrinks, its corner index stays in view). Each card is placed by a transform from its place and
 * the hand's size (classes), so a card played or drawn moves the others without a layout shift. Legal cards are lifted, the others dimmed; all stay
 * focusable, so the whole hand can be read by keyboard, the illegal ones marked disabled.
 */
export function Hand({
  cards,
  playable = [],
  selectable,
  selected,
  disabled,
  onPlay,
  label,
}: {
  cards: readonly string[];
  playable?: readonly string[];
  /** Selection mode (exchange, discard): these cards toggle in and out of `selected`. */
  selectable?: readonly string[];
  selected?: readonly string[];
  disabled: boolean;
  onPlay: (card: string) => void;
  label: string;
}) {
  // The cards' names (cardName) in the interface's language: re-rendered when it changes.
  useTranslation('game');
  const choosable = selectable ?? playable;
  const active = choosable.length > 0;
  return (
    <ul className={`hand n-${Math.min(cards.length, MAX_FAN)}${active ? ' active' : ''}`} aria-label={label} data-cards={cards.join(' ')}>
      {handOrder(cards).map((card, index) => {
        const enabled = choosable.includes(card) && !disabled;
        const isSelected = selected?.includes(card);
        return (
          <li key={card} className={`i-${Math.min(index, MAX_FAN - 1)}`}>
            <button
              type="button"
              className={`card suit-${suitOf(card)}${choosable.includes(card) ? ' legal' : active ? ' illegal' : ''}${isSelected ? ' selected' : ''}`}
              data-card={card}
              aria-label={cardName(card)}
              aria-disabled={!enabled}
              aria-pressed={selectable ? !!isSelected : undefined}
              onClick={() => enabled && onPlay(card)}
            >
              <PlayingCard card={card} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** A card shown, not played: its face and its name. */
export function CardText({ card }: { card: string }) {
  return (
    <span className={`card-text suit-${suitOf(card)}`} data-card={card}>
      <span aria-hidden="true">{cardFace(card)}</span> <span className="card-name">{cardName(card)}</span>
    </span>
  );
}
