import { cardName, isCard, parseCard, SUITS, type Card, type Suit } from './cards.js';
import { fail, ok, ruleError, type Result, type RuleError, type Seat } from './result.js';
import { BIDS, CONTRACTS, type Bid, type Contract } from './rules.js';

export type Move =
  | { kind: 'contract'; seat: Seat; contract: Contract }
  | { kind: 'exchange'; seat: Seat; discards: readonly Card[] }
  | { kind: 'bid'; seat: Seat; bid: Bid }
  | { kind: 'discard'; seat: Seat; cards: readonly Card[] } // exactly two
  | { kind: 'trump'; seat: Seat; suit: Suit }
  | { kind: 'play'; seat: Seat; card: Card };

/** What the player to move may do. Exchange and discard are sets of cards, not enumerated subsets. */
export type LegalMoves =
  | { kind: 'contract'; seat: Seat; contracts: Contract[] }
  | { kind: 'exchange'; seat: Seat; cards: Card[]; maxDiscards: number } // any 0..max distinct of cards
  | { kind: 'bid'; seat: Seat; bids: Bid[] }
  | { kind: 'discard'; seat: Seat; cards: Card[]; count: 2 }
  | { kind: 'trump'; seat: Seat; suits: Suit[] }
  | { kind: 'play'; seat: Seat; cards: Card[] };

/** A move as the record writes it: the seat and exactly one action key. */
export interface RecordMove {
  seat: number;
  contract?: string;
  exchange?: string[];
  bid?: string;
  discard?: string[];
  trump?: string;
  play?: string;
}

const ACTION_KEYS = ['contract', 'exchange', 'bid', 'discard', 'trump', 'play'] as const;

function badMove(message: string, rule = 'bad-move'): { ok: false; error: RuleError } {
  return fail(ruleError('BAD_MOVE', rule, message));
}

function cardList(value: unknown, key: string): Result<Card[], RuleError> {
  if (!Array.isArray(value)) return badMove(`${key} must be a list of cards`);
  const cards: Card[] = [];
  for (const item of value) {
    const card = typeof item === 'string' ? parseCard(item) : null;
    if (card === null) return badMove(`${key}: unknown card ${JSON.stringify(item)}`, 'unknown-card');
    cards.push(card);
  }
  return ok(cards);
}

/** The record's move JSON ({ "seat": 1, "play": "AH" } …) → Move. Bad shape / unknown card → 'BAD_MOVE'. */
export function moveFromJson(json: unknown): Result<Move, RuleError> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return badMove('a move must be an object');
  const o = json as Record<string, unknown>;
  const seat = o.seat;
  if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0) {
    return badMove('a move needs "seat", a non-negative integer');
  }
  const keys = Object.keys(o).filter((k) => k !== 'seat');
  if (keys.length !== 1 || !(ACTION_KEYS as readonly string[]).includes(keys[0])) {
    return badMove(`a move needs exactly one of ${ACTION_KEYS.join(', ')} besides "seat"; got ${JSON.stringify(keys)}`);
  }
  const key = keys[0] as (typeof ACTION_KEYS)[number];
  const value = o[key];
  switch (key) {
    case 'contract':
      if (!(CONTRACTS as readonly unknown[]).includes(value)) return badMove(`unknown contract ${JSON.stringify(value)}`);
      return ok({ kind: 'contract', seat, contract: value as Contract });
    case 'bid':
      if (!(BIDS as readonly unknown[]).includes(value)) return badMove(`unknown bid ${JSON.stringify(value)}`);
      return ok({ kind: 'bid', seat, bid: value as Bid });
    case 'trump':
      if (!(SUITS as readonly unknown[]).includes(value)) return badMove(`unknown trump suit ${JSON.stringify(value)}`);
      return ok({ kind: 'trump', seat, suit: value as Suit });
    case 'play': {
      const card = typeof value === 'string' ? parseCard(value) : null;
      if (card === null) return badMove(`play: unknown card ${JSON.stringify(value)}`, 'unknown-card');
      return ok({ kind: 'play', seat, card });
    }
    case 'exchange': {
      const cards = cardList(value, key);
      return cards.ok ? ok({ kind: 'exchange', seat, discards: cards.value }) : cards;
    }
    case 'discard': {
      const cards = cardList(value, key);
      return cards.ok ? ok({ kind: 'discard', seat, cards: cards.value }) : cards;
    }
  }
}

/** Move → the record's move JSON. */
export function moveToJson(move: Move): RecordMove {
  switch (move.kind) {
    case 'contract':
      return { seat: move.seat, contract: move.contract };
    case 'exchange':
      return { seat: move.seat, exchange: move.discards.map(cardName) };
    case 'bid':
      return { seat: move.seat, bid: move.bid };
    case 'discard':
      return { seat: move.seat, discard: move.cards.map(cardName) };
    case 'trump':
      return { seat: move.seat, trump: move.suit };
    case 'play':
      return { seat: move.seat, play: cardName(move.card) };
  }
}

/** A shape check for moves handed to apply by code (not parsed from JSON). */
export function moveShapeError(move: unknown): RuleError | null {
  if (typeof move !== 'object' || move === null) return ruleError('BAD_MOVE', 'bad-move', 'a move must be an object');
  const m = move as Record<string, unknown>;
  if (typeof m.seat !== 'number' || !Number.isInteger(m.seat)) {
    return ruleError('BAD_MOVE', 'bad-move', 'a move needs an integer seat');
  }
  switch (m.kind) {
    case 'contract':
      return (CONTRACTS as readonly unknown[]).includes(m.contract) ? null : ruleError('BAD_MOVE', 'bad-move', 'unknown contract');
    case 'bid':
      return (BIDS as readonly unknown[]).includes(m.bid) ? null : ruleError('BAD_MOVE', 'bad-move', 'unknown bid');
    case 'trump':
      return (SUITS as readonly unknown[]).includes(m.suit) ? null : ruleError('BAD_MOVE', 'bad-move', 'unknown trump suit');
    case 'play':
      return isCard(m.card) ? null : ruleError('BAD_MOVE', 'unknown-card', 'not a card');
    case 'exchange':
      return Array.isArray(m.discards) && m.discards.every(isCard)
        ? null
        : ruleError('BAD_MOVE', 'unknown-card', 'exchange discards must be a list of cards');
    case 'discard':
      return Array.isArray(m.cards) && m.cards.every(isCard)
        ? null
        : ruleError('BAD_MOVE', 'unknown-card', 'discard cards must be a list of cards');
    default:
      return ruleError('BAD_MOVE', 'bad-move', `unknown move kind ${JSON.stringify(m.kind)}`);
  }
}
