import { parseCard, type Card, type Move } from '@mizerka/rules';
import { badInput } from '../common/errors.js';
import type { MoveBody } from './dto/make-move.input.js';

export type MoveInput = Omit<MoveBody, 'expectedVersion' | 'idempotencyKey'>;

/** A move without its seat: what the caller asked for, before we know where they sit. */
export type SeatlessMove = Move extends infer M ? (M extends Move ? Omit<M, 'seat'> : never) : never;

const FIELDS = ['contract', 'discards', 'bid', 'cards', 'suit', 'card'] as const;
const FIELD_OF: Record<Move['kind'], (typeof FIELDS)[number]> = {
  contract: 'contract',
  exchange: 'discards',
  bid: 'bid',
  discard: 'cards',
  trump: 'suit',
  play: 'card',
};

/** The move the input describes, checked for shape and card names (bad input costs no round trip). */
export function seatlessMove(input: MoveInput): SeatlessMove {
  const field = FIELD_OF[input.kind];
  if (!field) throw badInput(`Unknown move kind "${String(input.kind)}"`);
  for (const other of FIELDS) {
    if (other !== field && input[other] !== undefined && input[other] !== null) {
      throw badInput(`A ${input.kind} move takes "${field}", not "${other}"`, { field: other });
    }
  }
  const value = input[field];
  if (value === undefined || value === null) throw badInput(`A ${input.kind} move needs "${field}"`, { field });
  switch (input.kind) {
    case 'contract':
      return { kind: 'contract', contract: input.contract! };
    case 'bid':
      return { kind: 'bid', bid: input.bid! };
    case 'trump':
      return { kind: 'trump', suit: input.suit! };
    case 'play':
      return { kind: 'play', card: card(input.card!) };
    case 'exchange':
      return { kind: 'exchange', discards: input.discards!.map(card) };
    case 'discard':
      return { kind: 'discard', cards: input.cards!.map(card) };
  }
}

function card(text: string): Card {
  const parsed = typeof text === 'string' ? parseCard(text) : null;
  if (parsed === null) throw badInput(`"${String(text).slice(0, 8)}" is not a card; write rank then suit, e.g. "AS", "TD", "7C"`);
  return parsed;
}
