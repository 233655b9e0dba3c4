import { biddingFamily } from './bidding.js';
import { isCard, RANK_OF, type Card } from './cards.js';
import { contractFamily } from './contract.js';
import type { GameEvent } from './events.js';
import { moveShapeError, type LegalMoves, type Move } from './moves.js';
import { fail, ok, ruleError, type Result, type RuleError, type Seat } from './result.js';
import { makeRules, type Rules } from './rules.js';
import {
  cloneState,
  createState,
  PH_DEALING,
  PH_OVER,
  PH_PLAY,
  PHASES,
  resetDeal,
  type Family,
  type GameState,
  type Phase,
  type State,
} from './state.js';
import { legalPlays, playCard } from './tricks.js';

/** The public, immutable API (OpenSpiel's state / legal actions / apply / current player / terminal). */

/** Each family's moves and scoring (the metadata is in presets.ts). */
const FAMILY_CODE: Readonly<Record<Rules['family'], Family>> = { contract: contractFamily, bidding: biddingFamily };

export function familyOf(rules: Rules): Family {
  return FAMILY_CODE[rules.family];
}

/** Internal view of the opaque state. */
export function internal(state: GameState): State {
  return state as State;
}

/** A new game in phase 'dealing', deal 0 dealt by firstDealer. */
export function newGame(rules: Rules, firstDealer: Seat): GameState {
  if (!Number.isInteger(firstDealer) || firstDealer < 0 || firstDealer >= rules.players) {
    throw new RangeError(`firstDealer must be a seat 0..${rules.players - 1}`);
  }
  return createState(rules, familyOf(rules), firstDealer, rules.handSize);
}

/** Is `deck` a permutation of rules.deck? */
export function deckError(rules: Rules, deck: readonly unknown[]): RuleError | null {
  if (!Array.isArray(deck)) return ruleError('BAD_DECK', 'deck-not-a-list', 'the deck must be a list of cards');
  if (deck.length !== rules.deck.length) {
    return ruleError('BAD_DECK', 'deck-length', `the deck must have ${rules.deck.length} cards, not ${deck.length}`);
  }
  const minRank = rules.minRank;
  let seenLow = 0; // cards 0..25
  let seenHigh = 0; // cards 26..51
  for (let i = 0; i < deck.length; i++) {
    const card = deck[i];
    if (!isCard(card) || RANK_OF[card] < minRank) {
      return ruleError('BAD_DECK', 'deck-unknown-card', `deck position ${i}: not a card of the ${rules.family} deck`);
    }
    const bit = 1 << (card < 26 ? card : card - 26);
    const seen = card < 26 ? seenLow : seenHigh;
    if (seen & bit) return ruleError('BAD_DECK', 'deck-duplicate-card', `deck position ${i}: a card appears twice`);
    if (card < 26) seenLow |= bit;
    else seenHigh |= bit;
  }
  return null;
}

/**
 * In place: deal `deck` (the whole deck in dealing order) into a state in phase 'dealing'.
 * Events are pushed onto `ev` when it is given. The fast path for the bench and bots.
 */
export function dealInPlace(state: GameState, deck: readonly Card[], ev: GameEvent[] | null = null): RuleError | null {
  const s = internal(state);
  if (s.phase === PH_OVER) return ruleError('GAME_OVER', 'game-over', 'the game is over');
  if (s.phase !== PH_DEALING) return ruleError('WRONG_PHASE', 'deal-in-progress', 'the current deal is not finished');
  const bad = deckError(s.rules, deck);
  if (bad) return bad;
  resetDeal(s);
  for (let i = 0; i < deck.length; i++) s.deck[i] = deck[i];
  s.fam.startDeal(s, deck, ev);
  return null;
}

/** The chance node: the whole deck in dealing order (docs/rules.md); must be a permutation of rules.deck. */
export function deal(state: GameState, deck: readonly Card[]): Result<GameState, RuleError> {
  const next = cloneState(internal(state));
  const error = dealInPlace(next, deck, null);
  return error ? fail(error) : ok(next);
}

/** deal, with the 'dealt' event (hands as each seat now sees them; pass it through eventView). */
export function dealWithEvents(state: GameState, deck: readonly Card[]): Result<{ state: GameState; events: GameEvent[] }, RuleError> {
  const next = cloneState(internal(state));
  const events: GameEvent[] = [];
  const error = dealInPlace(next, deck, events);
  return error ? fail(error) : ok({ state: next, events });
}

/**
 * In place: apply a move to `state`, pushing events onto `ev` when given. On an error the state
 * is unchanged (every check comes before the first write). The fast path for the bench and bots.
 */
export function applyInPlace(state: GameState, move: Move, ev: GameEvent[] | null = null): RuleError | null {
  const s = internal(state);
  if (s.phase === PH_OVER) return ruleError('GAME_OVER', 'game-over', 'the game is over');
  if (s.phase === PH_DEALING) return ruleError('WRONG_PHASE', 'not-dealt', 'no deal in progress: the cards are not dealt');
  const shape = moveShapeError(move);
  if (shape) return shape;
  if (move.seat !== s.toMove) return ruleError('NOT_YOUR_TURN', 'not-your-turn', `it is seat ${s.toMove}'s turn, not seat ${move.seat}'s`);
  if (move.kind === 'play') {
    if (s.phase !== PH_PLAY) return ruleError('WRONG_PHASE', 'wrong-phase', `cards are not played in phase ${PHASES[s.phase]}`);
    return playCard(s, move.card, ev);
  }
  if (s.phase === PH_PLAY) return ruleError('WRONG_PHASE', 'wrong-phase', `expected a card, not a ${move.kind} move`);
  return s.fam.step(s, move, ev);
}

/** Apply a move; never throws for a bad move. The given state is not changed. */
export function apply(state: GameState, move: Move): Result<{ state: GameState; events: GameEvent[] }, RuleError> {
  const next = cloneState(internal(state));
  const events: GameEvent[] = [];
  const error = applyInPlace(next, move, events);
  return error ? fail(error) : ok({ state: next, events });
}

/** A copy that applyInPlace / dealInPlace may change. */
export function copyState(state: GameState): GameState {
  return cloneState(internal(state));
}

export function phase(state: GameState): Phase {
  return PHASES[internal(state).phase];
}

/** null while dealing or over. */
export function currentPlayer(state: GameState): Seat | null {
  const s = internal(state);
  return s.toMove >= 0 ? s.toMove : null;
}

/** For currentPlayer; null while dealing or over. */
export function legalMoves(state: GameState): LegalMoves | null {
  const s = internal(state);
  if (s.phase === PH_DEALING || s.phase === PH_OVER) return null;
  if (s.phase === PH_PLAY) return { kind: 'play', seat: s.toMove, cards: legalPlays(s) };
  return s.fam.legal(s);
}

export function isOver(state: GameState): boolean {
  return internal(state).phase === PH_OVER;
}

/** 0-based deal being played or to be dealt; once over, the last deal. */
export function dealIndex(state: GameState): number {
  return internal(state).dealNo;
}

/** The dealer of the deal being played or to be dealt. */
export function currentDealer(state: GameState): Seat {
  return internal(state).dealer;
}

// --- the stored state: a versioned codec ---------------------------------------------------

const STATE_FORMAT = 'mizerka-state/1';
/**
 * The layout's version, written as "v". Version 1: every field of State but the ones derived from
 * the rules. A state stored before "v" was written (no "v") has the same layout, except that the
 * fields of LEGACY_OPTIONAL may be missing (added later; they keep their defaults).
 */
export const STATE_VERSION = 1;
const SKIP = new Set(['rules', 'fam', 'n', 'handSize', 'firstDealer']);
const LEGACY_OPTIONAL = new Set(['endSeat', 'endReason', 'abandoned']);

/**
 * The state as JSON text: what a store writes, once per move. Written field by field instead of
 * building the object for JSON.stringify; the finished deals' text (most of it late in a game) is
 * kept per list, which a move never changes in place (it copies the list to append a deal).
 */
export function encodeState(state: GameState): string {
  const s = internal(state);
  let text = `{"format":"${STATE_FORMAT}","v":${STATE_VERSION},"rules":${rulesJson(s.rules)},"firstDealer":${s.firstDealer}`;
  for (const key in s) {
    if (SKIP.has(key)) continue;
    const value = (s as unknown as Record<string, unknown>)[key];
    text += `,"${key}":`;
    if (typeof value === 'number') text += Number.isFinite(value) ? String(value) : 'null';
    else if (ArrayBuffer.isView(value)) text += `[${(value as Uint8Array).join(',')}]`;
    else if (Array.isArray(value)) text += listJson(value);
    else text += JSON.stringify(value);
  }
  return text + '}';
}

const rulesText = new WeakMap<Rules, string>();

function rulesJson(rules: Rules): string {
  let text = rulesText.get(rules);
  if (text === undefined) rulesText.set(rules, (text = JSON.stringify({ preset: rules.preset, options: rules.options })));
  return text;
}

const listText = new WeakMap<readonly unknown[], { length: number; text: string }>();

/** A state's list (finished deals, winners, the abandoned deal): replaced, never changed in place, when it changes. */
function listJson(list: readonly unknown[]): string {
  const known = listText.get(list);
  if (known && known.length === list.length) return known.text;
  const text = JSON.stringify(list);
  listText.set(list, { length: list.length, text });
  return text;
}

/**
 * The inverse of encodeState, given the parsed JSON: version 1, or a state stored before versions
 * were written. Throws on anything else (another format, a newer version, a bad field).
 */
export function decodeState(json: unknown): GameState {
  const o = json as Record<string, unknown>;
  if (typeof o !== 'object' || o === null || o.format !== STATE_FORMAT) throw new TypeError('not a serialized Mizerka state');
  const legacy = o.v === undefined;
  if (!legacy && o.v !== STATE_VERSION) throw new TypeError(`state version ${JSON.stringify(o.v)} is not one this library reads (${STATE_VERSION})`);
  const r = o.rules as { preset: string; options: unknown } | undefined;
  const rules = makeRules(r?.preset as string, r?.options);
  if (!rules.ok) throw new TypeError(`bad rules in state: ${rules.error.message}`);
  const s = newGame(rules.value, o.firstDealer as number) as State;
  const target = s as unknown as Record<string, unknown>;
  for (const [key, current] of Object.entries(s)) {
    if (SKIP.has(key)) continue;
    const value = o[key];
    if (value === undefined && legacy && LEGACY_OPTIONAL.has(key)) continue;
    if (ArrayBuffer.isView(current)) {
      const typed = current as Uint8Array;
      if (!Array.isArray(value) || value.length !== typed.length || !value.every(Number.isInteger)) {
        throw new TypeError(`bad state field ${key}`);
      }
      typed.set(value as number[]);
    } else if (typeof current === 'number') {
      if (!Number.isInteger(value)) throw new TypeError(`bad state field ${key}`);
      target[key] = value;
    } else {
      if (!Array.isArray(value)) throw new TypeError(`bad state field ${key}`);
      target[key] = value;
    }
  }
  return s;
}
