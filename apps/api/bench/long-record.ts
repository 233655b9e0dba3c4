// A long bidding game's record of about a given size, played at random through the rules library:
// the record an import's worst case is measured with (the import bench and the large-import test).
import { createHash } from 'node:crypto';
import {
  cardName,
  dealIndex,
  isOver,
  legalMoves,
  makeRules,
  moveToJson,
  newGame,
  phase,
  shuffledDeck,
  Xoshiro128,
  type GameRecord,
  type LegalMoves,
  type Move,
} from '@mizerka/rules';
import { applyInPlace, dealInPlace } from '@mizerka/rules/fast';

/** 32 hex digits from a name and a number (not secret: a test's deck). */
function seedHex(name: string, n: number): string {
  return createHash('sha256').update(`${name}:${n}`).digest('hex').slice(0, 32);
}

function randomMove(legal: LegalMoves, next: () => number): Move {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const seat = legal.seat;
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', seat, contract: pick(legal.contracts) };
    case 'exchange':
      return { kind: 'exchange', seat, discards: [] };
    case 'bid':
      return { kind: 'bid', seat, bid: pick(legal.bids) };
    case 'discard':
      return { kind: 'discard', seat, cards: [...legal.cards].sort(() => next() - 0.5).slice(0, 2) };
    case 'trump':
      return { kind: 'trump', seat, suit: pick(legal.suits) };
    case 'play':
      return { kind: 'play', seat, card: pick(legal.cards) };
  }
}

/**
 * A finished bidding game (target 10000, so it never ends by points) of whole deals, random moves
 * from `seed`, grown until its JSON text reaches `bytes`, then ended by seat 1's resignation.
 */
export function longBiddingRecord(bytes: number, seed = 'long-record', players = ['ala', 'bob', 'cyd']): GameRecord & { players: string[] } {
  const rules = makeRules('bidding', { target: 10_000 });
  if (!rules.ok) throw new Error(rules.error.message);
  const rng = Xoshiro128.fromSeed(seedHex(seed, -1));
  const next = () => rng.next() / 2 ** 32;
  const state = newGame(rules.value, 0);
  const record: GameRecord & { players: string[] } = {
    format: 'mizerka-record/1',
    rules: { preset: rules.value.preset, options: rules.value.options },
    firstDealer: 0,
    players,
    deals: [],
  };
  let size = JSON.stringify(record).length + 40;
  for (;;) {
    if (isOver(state)) throw new Error('the game ended by points before the record reached its size');
    if (phase(state) === 'dealing') {
      if (size >= bytes) break;
      const index = dealIndex(state);
      const deck = shuffledDeck(rules.value, seedHex(seed, index));
      const error = dealInPlace(state, deck);
      if (error) throw new Error(error.message);
      record.deals.push({ deck: deck.map(cardName), moves: [] });
      continue;
    }
    const move = randomMove(legalMoves(state)!, next);
    const error = applyInPlace(state, move);
    if (error) throw new Error(error.message);
    const json = moveToJson(move);
    record.deals[record.deals.length - 1].moves.push(json);
    size += JSON.stringify(json).length + 1;
    if (phase(state) === 'dealing') size += JSON.stringify(record.deals[record.deals.length - 1].deck).length + 20;
  }
  // Trim to the size asked for: whole deals, the last one finished.
  while (JSON.stringify({ ...record, end: { seat: 1, reason: 'resigned' } }).length > bytes) record.deals.pop();
  return { ...record, end: { seat: 1, reason: 'resigned' } };
}
