import type { Card } from './cards.js';
import type { GameEvent } from './events.js';
import type { LegalMoves, Move } from './moves.js';
import { ruleError, type RuleError, type Seat } from './result.js';
import { CONTRACTS, MIZERKA } from './rules.js';
import { trickCounts } from './tricks.js';
import {
  addCard,
  dealByTable,
  maskCards,
  ownCardsError,
  PH_CONTRACT,
  PH_EXCHANGE,
  PH_PLAY,
  removeCard,
  type ContractDealOutcome,
  type Family,
  type State,
} from './state.js';

/** Family "contract" (texts 000 and 002): a chosen contract, an exchange with the talon, quotas. */

/** Rounds dealt before the pause in which the chooser picks the contract. */
export const PAUSE_ROUNDS = 6;

/** Quotas by position, clockwise from the chooser (the dealer last). */
const QUOTAS: Record<number, readonly number[]> = { 3: [7, 5, 1], 4: [4, 3, 2, 1] };
const MIZERKA_QUOTAS: Record<number, readonly number[]> = { 3: [1, 5, 7], 4: [1, 2, 3, 4] };

/** Position of a seat counted clockwise from the chooser: 0 = chooser … n-1 = dealer. */
function position(s: State, seat: Seat): number {
  return (seat - s.dealer - 1 + 2 * s.n) % s.n;
}

export function quota(s: State, seat: Seat, contract: number): number {
  const table = contract === MIZERKA && s.rules.mizerkaQuotas === 'reversed' ? MIZERKA_QUOTAS : QUOTAS;
  return table[s.n][position(s, seat)];
}

function wrongPhase(move: Move, s: State): RuleError {
  const want = s.phase === PH_CONTRACT ? 'a contract' : s.phase === PH_EXCHANGE ? 'an exchange' : 'a card';
  return ruleError('WRONG_PHASE', 'wrong-phase', `expected ${want}, not a ${move.kind} move`);
}

function chooseContract(s: State, seat: Seat, name: string, ev: GameEvent[] | null): RuleError | null {
  const index = CONTRACTS.indexOf(name as never);
  if (index < 0 || !s.rules.contracts.includes(CONTRACTS[index])) {
    return ruleError('ILLEGAL_MOVE', 'contract-not-in-rules', `${name} is not a contract of ${s.rules.preset}`);
  }
  if ((s.used[seat] >> index) & 1) {
    return ruleError('ILLEGAL_MOVE', 'contract-already-chosen', `you have already chosen ${name} in this game`);
  }
  s.used[seat] |= 1 << index;
  s.contract = index;
  s.trump = index < 4 ? index : -1;
  s.phase = PH_EXCHANGE;
  s.toMove = s.chooser;
  if (ev) {
    ev.push({ type: 'contractChosen', seat, contract: CONTRACTS[index] });
    const hands: Card[][] = [];
    for (let p = 0; p < s.n; p++) hands.push(maskCards(s.hands, p));
    ev.push({ type: 'handCompleted', hands });
  }
  return null;
}

function exchange(s: State, seat: Seat, discards: readonly Card[], ev: GameEvent[] | null): RuleError | null {
  const k = discards.length;
  const max = Math.min(s.handSize, s.talonLen - s.talonPos);
  if (k > max) {
    return ruleError('ILLEGAL_MOVE', 'exchange-too-many', `you may exchange at most ${max} cards, not ${k}`);
  }
  const bad = ownCardsError(s, seat, discards);
  if (bad) return bad;
  const drawn: Card[] | null = ev ? [] : null;
  for (let i = 0; i < k; i++) {
    removeCard(s.hands, seat, discards[i]);
    addCard(s.discards, seat, discards[i]);
    const card = s.talon[s.talonPos++];
    addCard(s.hands, seat, card);
    if (drawn) drawn.push(card);
  }
  s.exchanged[seat] = k;
  if (ev && drawn) ev.push({ type: 'exchanged', seat, discards: [...discards], drawn });
  if (seat === s.dealer) {
    s.phase = PH_PLAY;
    s.leader = s.chooser;
    s.toMove = s.chooser;
  } else {
    s.toMove = (seat + 1) % s.n;
  }
  return null;
}

const tables = new Map<number, Int8Array>();

/** Deck position → seat (or -1, the talon): rounds to left of dealer … dealer, talon; the rest to the talon. */
function destinations(n: number, dealer: Seat, handSize: number): Int8Array {
  const key = n * 8 + dealer;
  let table = tables.get(key);
  if (!table) {
    table = new Int8Array(52);
    const piles = n + 1;
    for (let i = 0; i < 52; i++) {
      const round = (i / piles) | 0;
      const pile = i - round * piles;
      table[i] = round < handSize && pile < n ? (dealer + 1 + pile) % n : -1;
    }
    tables.set(key, table);
  }
  return table;
}

export const contractFamily: Family = {
  name: 'contract',

  startDeal(s, deck, ev) {
    const n = s.n;
    dealByTable(s, deck, destinations(n, s.dealer, s.handSize));
    s.chooser = (s.dealer + 1) % n;
    s.phase = PH_CONTRACT;
    s.toMove = s.chooser;
    if (ev) {
      const hands: Card[][] = [];
      for (let seat = 0; seat < n; seat++) hands.push(this.visibleHand(s, seat));
      ev.push({ type: 'dealt', deal: s.dealNo, dealer: s.dealer, hands, talonSize: this.talonSize(s) });
    }
  },

  step(s, move, ev) {
    if (move.kind === 'contract' && s.phase === PH_CONTRACT) return chooseContract(s, move.seat, move.contract, ev);
    if (move.kind === 'exchange' && s.phase === PH_EXCHANGE) return exchange(s, move.seat, move.discards, ev);
    return wrongPhase(move, s);
  },

  legal(s): LegalMoves {
    const seat = s.toMove;
    if (s.phase === PH_CONTRACT) {
      return { kind: 'contract', seat, contracts: s.rules.contracts.filter((c) => !((s.used[seat] >> CONTRACTS.indexOf(c)) & 1)) };
    }
    const cards = maskCards(s.hands, seat);
    return { kind: 'exchange', seat, cards, maxDiscards: Math.min(cards.length, s.talonLen - s.talonPos) };
  },

  scores(s) {
    const out: number[] = [];
    for (let seat = 0; seat < s.n; seat++) {
      const diff = s.tricks[seat] - quota(s, seat, s.contract);
      // 0 - x would give -0 for a met quota; JSON would not show it, Object.is would.
      out.push(s.contract === MIZERKA ? (diff === 0 ? 0 : -diff) : diff);
    }
    return out;
  },

  gameEnds(s) {
    return s.dealNo + 1 >= (s.rules.deals ?? 0);
  },

  dealOutcome(s, scores): ContractDealOutcome {
    return {
      dealer: s.dealer,
      contract: s.contract >= 0 ? CONTRACTS[s.contract] : null,
      tricks: trickCounts(s) as number[],
      scores,
    };
  },

  visibleHand(s, seat) {
    if (s.phase !== PH_CONTRACT) return maskCards(s.hands, seat);
    const piles = s.n + 1;
    const pile = position(s, seat);
    const cards: Card[] = [];
    for (let round = 0; round < PAUSE_ROUNDS; round++) cards.push(s.deck[round * piles + pile]);
    return cards.sort((a, b) => a - b);
  },

  talonSize(s) {
    if (s.phase === PH_CONTRACT) return PAUSE_ROUNDS;
    return s.talonLen - s.talonPos;
  },
};
