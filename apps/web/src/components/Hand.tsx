import { cardFace, cardName, sortCards, suitOf } from '../cards';

/**
 * A hand of cards as buttons, sorted by suit. Cards that may be played (or selected) are
 * highlighted; the others stay focusable, so the whole hand can be read by keyboard, but are
 * marked disabled and do nothing.
 */
export function Hand({
  cards,
  playable = [],
  selectable,
  selected,
  disabled,
  onPlay,
}: {
  cards: readonly string[];
  playable?: readonly string[];
  /** Selection mode (exchange, discard): these cards toggle in and out of `selected`. */
  selectable?: readonly string[];
  selected?: readonly string[];
  disabled: boolean;
  onPlay: (card: string) => void;
}) {
  const choosable = selectable ?? playable;
  return (
    <ul className="hand" aria-label={`${cards.length} cards`}>
      {sortCards(cards).map((card) => {
        const enabled = choosable.includes(card) && !disabled;
        const isSelected = selected?.includes(card);
        return (
          <li key={card}>
            <button
              type="button"
              className={`card suit-${suitOf(card)}${choosable.includes(card) ? ' legal' : ''}${isSelected ? ' selected' : ''}`}
              data-card={card}
              aria-disabled={!enabled}
              aria-pressed={selectable ? !!isSelected : undefined}
              onClick={() => enabled && onPlay(card)}
            >
              <span aria-hidden="true" className="face">
                {cardFace(card)}
              </span>
              <span className="sr-only">{cardName(card)}</span>
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
