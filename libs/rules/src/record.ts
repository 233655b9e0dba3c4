import { parseCard, type Card } from './cards.js';
import { endGameInPlace, gameEnd } from './end.js';
import { applyInPlace, dealInPlace, deckError, internal, newGame, phase } from './game.js';
import { moveFromJson, type Move, type RecordMove } from './moves.js';
import { fail, ok, type Result, type RuleErrorCode, type Seat } from './result.js';
import { makeRules, type Preset, type RuleOptions } from './rules.js';
import type { GameEvent } from './events.js';
import { END_REASONS, PH_DEALING, PH_OVER, type DealOutcome, type EndReason, type GameEnd, type GameState } from './state.js';

/** The game record, mizerka-record/1 (docs/rules.md, "The game record"). */

export const RECORD_FORMAT = 'mizerka-record/1';

export interface GameRecord {
  format: 'mizerka-record/1';
  rules: { preset: Preset; options: RuleOptions };
  firstDealer: Seat;
  players?: string[];
  /** Which seats a computer player held (informative): null for a person, else e.g. a bot level or "account". */
  bots?: (string | null)[];
  deals: { deck: string[]; moves: RecordMove[] }[];
  /** The game ended early: this seat resigned or forfeited after the last deal's moves (docs/rules.md). */
  end?: GameEnd;
}

export interface Outcome {
  deals: DealOutcome[];
  totals: number[];
  finished: boolean;
  winners: Seat[];
  /** Only when the game ended early (resigned or forfeited); absent otherwise. */
  end?: GameEnd;
}

/**
 * One step of a replay as a played game logs it: a deal dealt, a move, or the record's end, with
 * the rules' events it made (private cards included). Steps come in order; a step is reported only
 * once it is accepted, so a replay that fails has reported the steps before the failing one.
 */
export interface ReplayStep {
  kind: 'deal' | 'move' | 'end';
  dealIndex: number;
  /** The move as the record gives it; null for a deal or the end. */
  move: RecordMove | null;
  events: GameEvent[];
}

export interface RecordError {
  dealIndex: number | null;
  moveIndex: number | null;
  rule: string;
  message: string;
  /** 'BAD_RECORD' for a record that does not parse or validate; the RuleError code for a move or deck that replay refuses. */
  code?: RuleErrorCode | 'BAD_RECORD';
  /** 'end' when the error is in the record's top-level `end` (dealIndex and moveIndex are then null). */
  at?: 'end';
}

function recordError(
  rule: string,
  message: string,
  dealIndex: number | null = null,
  moveIndex: number | null = null,
  code: RecordError['code'] = 'BAD_RECORD',
): { ok: false; error: RecordError } {
  return fail({ dealIndex, moveIndex, rule, message, code });
}

function endRecordError(rule: string, message: string, code: RecordError['code']): { ok: false; error: RecordError } {
  return fail({ dealIndex: null, moveIndex: null, rule, message, code, at: 'end' });
}

const TOP_KEYS = new Set(['format', 'rules', 'firstDealer', 'players', 'bots', 'deals', 'end']);
/** A bot mark is a short word: a level ("strong") or "account". */
const BOT_MARK = /^[a-z][a-z0-9-]{0,31}$/;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Validates shape, rules, first dealer, players, decks (permutations of the preset's deck) and move shapes. */
export function parseRecord(input: string | unknown): Result<GameRecord, RecordError> {
  let json: unknown = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input);
    } catch (e) {
      return recordError('bad-json', `not JSON: ${(e as Error).message}`);
    }
  }
  if (!isObject(json)) return recordError('bad-record', 'a record must be a JSON object');
  for (const key of Object.keys(json)) {
    if (!TOP_KEYS.has(key)) return recordError('bad-record', `unknown key ${JSON.stringify(key)}`);
  }
  if (json.format !== RECORD_FORMAT) {
    return recordError('bad-format', `format must be "${RECORD_FORMAT}", not ${JSON.stringify(json.format)}`);
  }
  const r = json.rules;
  if (!isObject(r)) return recordError('bad-rules', 'rules must be an object { preset, options }');
  for (const key of Object.keys(r)) {
    if (key !== 'preset' && key !== 'options') return recordError('bad-rules', `unknown key rules.${key}`);
  }
  const made = makeRules(r.preset as string, r.options);
  if (!made.ok) return recordError('bad-rules', made.error.message);
  const rules = made.value;
  const firstDealer = json.firstDealer;
  if (typeof firstDealer !== 'number' || !Number.isInteger(firstDealer) || firstDealer < 0 || firstDealer >= rules.players) {
    return recordError('bad-first-dealer', `firstDealer must be a seat 0..${rules.players - 1}, not ${JSON.stringify(firstDealer)}`);
  }
  let players: string[] | undefined;
  if (json.players !== undefined) {
    if (!Array.isArray(json.players) || !json.players.every((p) => typeof p === 'string')) {
      return recordError('bad-players', 'players must be a list of names');
    }
    if (json.players.length !== rules.players) {
      return recordError('bad-players', `${rules.preset} has ${rules.players} players; the record names ${json.players.length}`);
    }
    players = [...(json.players as string[])];
  }
  let bots: (string | null)[] | undefined;
  if (json.bots !== undefined) {
    if (!Array.isArray(json.bots) || !json.bots.every((b) => b === null || (typeof b === 'string' && BOT_MARK.test(b)))) {
      return recordError('bad-bots', 'bots must be a list of null (a person) or a short lowercase word (the computer player) per seat');
    }
    if (json.bots.length !== rules.players) {
      return recordError('bad-bots', `${rules.preset} has ${rules.players} players; the record marks ${json.bots.length}`);
    }
    bots = [...(json.bots as (string | null)[])];
  }
  if (!Array.isArray(json.deals)) return recordError('bad-deals', 'deals must be a list');
  const deals: GameRecord['deals'] = [];
  for (let d = 0; d < json.deals.length; d++) {
    const dealJson: unknown = json.deals[d];
    if (!isObject(dealJson)) return recordError('bad-deal', 'a deal must be an object { deck, moves }', d);
    for (const key of Object.keys(dealJson)) {
      if (key !== 'deck' && key !== 'moves') return recordError('bad-deal', `unknown key ${JSON.stringify(key)} in a deal`, d);
    }
    const deck = dealJson.deck;
    if (!Array.isArray(deck)) return recordError('bad-deck', 'deck must be a list of cards', d);
    const cards: Card[] = [];
    for (let i = 0; i < deck.length; i++) {
      const card = typeof deck[i] === 'string' ? parseCard(deck[i] as string) : null;
      if (card === null) {
        return recordError('deck-unknown-card', `deck position ${i}: unknown card ${JSON.stringify(deck[i])}`, d, null, 'BAD_DECK');
      }
      cards.push(card);
    }
    const bad = deckError(rules, cards);
    if (bad) {
      // deckError cannot name a card (it also serves seats); here the whole deck is public to the record's reader.
      const position = /position (\d+)/.exec(bad.message);
      const detail = position ? `: ${JSON.stringify(deck[Number(position[1])])}` : '';
      return recordError(bad.rule, `${bad.message}${detail}`, d, null, 'BAD_DECK');
    }
    if (!Array.isArray(dealJson.moves)) return recordError('bad-moves', 'moves must be a list', d);
    const moves: RecordMove[] = [];
    for (let m = 0; m < dealJson.moves.length; m++) {
      const move = moveFromJson(dealJson.moves[m]);
      if (!move.ok) return recordError(move.error.rule, move.error.message, d, m, 'BAD_MOVE');
      if (move.value.seat >= rules.players) {
        return recordError('bad-move', `seat ${move.value.seat} does not exist with ${rules.players} players`, d, m, 'BAD_MOVE');
      }
      moves.push({ ...(dealJson.moves[m] as RecordMove) });
    }
    deals.push({ deck: [...(deck as string[])], moves });
  }
  const record: GameRecord = {
    format: RECORD_FORMAT,
    rules: { preset: rules.preset, options: { ...rules.options } },
    firstDealer,
    deals,
  };
  if (players) record.players = players;
  if (bots) record.bots = bots;
  if (json.end !== undefined) {
    const end = json.end;
    if (!isObject(end)) {
      return endRecordError('bad-end', 'end must be an object { "seat": n, "reason": "resigned" | "forfeit" }', 'BAD_RECORD');
    }
    for (const key of Object.keys(end)) {
      if (key !== 'seat' && key !== 'reason') {
        return endRecordError('bad-end', `end has an unknown key ${JSON.stringify(key)} (only seat and reason)`, 'BAD_RECORD');
      }
    }
    if (typeof end.seat !== 'number' || !Number.isInteger(end.seat)) {
      return endRecordError('bad-end', `end.seat must be a seat number, not ${JSON.stringify(end.seat)}`, 'BAD_RECORD');
    }
    if (!END_REASONS.includes(end.reason as EndReason)) {
      return endRecordError('bad-end', `end.reason must be "resigned" or "forfeit", not ${JSON.stringify(end.reason)}`, 'BAD_RECORD');
    }
    if (end.seat < 0 || end.seat >= rules.players) {
      return endRecordError('no-such-seat', `seat ${end.seat} does not exist with ${rules.players} players`, 'BAD_MOVE');
    }
    record.end = { seat: end.seat, reason: end.reason as EndReason };
  }
  return ok(record);
}

/** The outcome JSON of docs/rules.md: finished deals, then the deal in progress (scores null). */
export function outcome(state: GameState): Outcome {
  const s = internal(state);
  const deals: DealOutcome[] = s.finished.map((d) => ({ ...d, tricks: [...d.tricks], scores: d.scores && [...d.scores] }) as DealOutcome);
  if (s.phase !== PH_DEALING && s.phase !== PH_OVER) deals.push(s.fam.dealOutcome(s, null));
  for (const d of s.abandoned) deals.push({ ...d, tricks: [...d.tricks], scores: null } as DealOutcome);
  const over = s.phase === PH_OVER;
  const out: Outcome = { deals, totals: Array.from(s.totals), finished: over, winners: over ? [...s.winners] : [] };
  const end = gameEnd(s);
  if (end) out.end = end; // after winners: outcomes of games that ended normally stay as they were
  return out;
}

/**
 * Replays a record: dealer of deal i is (firstDealer + i) mod players; the first illegal move
 * stops the replay with its deal index, move index and rule. Also errors: a deal that is not
 * finished followed by another ('deal-unfinished'), moves after a deal ends ('move-after-deal-end'),
 * deals after the game is over ('deal-after-game-over'). A record's `end` is applied after the last
 * deal's moves; one in a game already over is refused ('game-over', RecordError.at = 'end').
 * `onStep` sees each accepted step with its events, as apply and dealWithEvents give them: a game's
 * log from the one replay, in place (no copy of the state per move).
 */
export function replay(record: GameRecord, onStep?: (step: ReplayStep) => void): Result<{ state: GameState; outcome: Outcome }, RecordError> {
  const parsed = parseRecord(record);
  if (!parsed.ok) return parsed;
  const rec = parsed.value;
  const rules = makeRules(rec.rules.preset, rec.rules.options);
  if (!rules.ok) return recordError('bad-rules', rules.error.message);
  const state = newGame(rules.value, rec.firstDealer);
  for (let d = 0; d < rec.deals.length; d++) {
    const s = internal(state);
    if (s.phase === PH_OVER) {
      return recordError('deal-after-game-over', `the game ended with deal ${d - 1}; deal ${d} is one too many`, d, null, 'GAME_OVER');
    }
    if (s.phase !== PH_DEALING) {
      const moves = rec.deals[d - 1].moves.length;
      return recordError(
        'deal-unfinished',
        `deal ${d - 1} is not finished (phase ${phase(state)}) after ${moves} moves, yet deal ${d} follows`,
        d - 1,
        moves,
      );
    }
    const deck = rec.deals[d].deck.map((name) => parseCard(name) as Card);
    const dealEvents: GameEvent[] | null = onStep ? [] : null;
    const dealt = dealInPlace(state, deck, dealEvents);
    if (dealt) return recordError(dealt.rule, dealt.message, d, null, dealt.code);
    if (onStep) onStep({ kind: 'deal', dealIndex: d, move: null, events: dealEvents! });
    const moves = rec.deals[d].moves;
    for (let m = 0; m < moves.length; m++) {
      if (s.phase === PH_DEALING || s.phase === PH_OVER) {
        return recordError('move-after-deal-end', `deal ${d} is over; no move may follow`, d, m);
      }
      const move = moveFromJson(moves[m]);
      if (!move.ok) return recordError(move.error.rule, move.error.message, d, m, move.error.code);
      const events: GameEvent[] | null = onStep ? [] : null;
      const error = applyInPlace(state, move.value as Move, events);
      if (error) return recordError(error.rule, error.message, d, m, error.code);
      if (onStep) onStep({ kind: 'move', dealIndex: d, move: moves[m], events: events! });
    }
  }
  if (rec.end) {
    const events: GameEvent[] | null = onStep ? [] : null;
    const error = endGameInPlace(state, rec.end, events);
    if (error) {
      const message = error.rule === 'game-over' ? 'the game was already over; it cannot also end early' : error.message;
      return endRecordError(error.rule, message, error.code);
    }
    if (onStep) onStep({ kind: 'end', dealIndex: Math.max(0, rec.deals.length - 1), move: null, events: events! });
  }
  return ok({ state, outcome: outcome(state) });
}

/** One line for people: `deal 2, move 14: illegal move (follow-suit): …` (indexes 0-based). */
export function formatRecordError(error: RecordError): string {
  const where: string[] = [];
  if (error.dealIndex !== null) where.push(`deal ${error.dealIndex}`);
  if (error.moveIndex !== null) where.push(`move ${error.moveIndex}`);
  if (error.at === 'end') where.push('end');
  const code = error.code ?? 'BAD_RECORD';
  // An end is not a move: `end: illegal (game-over): …`.
  const kind = error.at === 'end' && code !== 'BAD_RECORD' ? 'illegal' : KIND_TEXT[code];
  return `${where.length ? where.join(', ') + ': ' : ''}${kind} (${error.rule}): ${error.message}`;
}

const KIND_TEXT: Record<RuleErrorCode | 'BAD_RECORD', string> = {
  BAD_RECORD: 'invalid record',
  BAD_RULES: 'invalid rules',
  BAD_DECK: 'invalid deck',
  BAD_MOVE: 'invalid move',
  WRONG_PHASE: 'illegal move',
  NOT_YOUR_TURN: 'illegal move',
  ILLEGAL_MOVE: 'illegal move',
  GAME_OVER: 'illegal move',
};
