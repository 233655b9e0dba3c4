import { SUITS, type Card } from './cards.js';
import type { GameEvent } from './events.js';
import type { LegalMoves, Move } from './moves.js';
import { ruleError, type RuleError, type Seat } from './result.js';
import { BIDS, DOUBLE_MISERE, MISERE, PASS, PLAY } from './rules.js';
import {
  addCard,
  dealByTable,
  maskCards,
  nextSeat,
  ownCardsError,
  PH_BIDDING,
  PH_DISCARD,
  PH_PLAY,
  PH_TRUMP,
  removeCard,
  type BiddingDealOutcome,
  type Family,
  type State,
} from './state.js';
import { trickCounts } from './tricks.js';

/** Family "bidding" (text 004): 32 cards, pass/play/misère bidding, a declarer against two defenders. */

const ACTIVE = 3;
const TALON = 2;

function highestBid(s: State): number {
  let best = PASS;
  for (let seat = 0; seat < s.n; seat++) if (s.bids[seat] > best) best = s.bids[seat];
  return best;
}

function startPlay(s: State): void {
  s.phase = PH_PLAY;
  s.leader = nextSeat(s, s.declarer);
  s.toMove = s.leader;
}

function bid(s: State, seat: Seat, name: string, ev: GameEvent[] | null): RuleError | null {
  const b = BIDS.indexOf(name as never);
  if (b < 0) return ruleError('BAD_MOVE', 'bad-move', `unknown bid ${JSON.stringify(name)}`);
  if (b === DOUBLE_MISERE && !s.rules.doubleMisere) {
    return ruleError('ILLEGAL_MOVE', 'double-misere-disabled', 'double-misere is not allowed by these rules');
  }
  const highest = highestBid(s);
  if (b !== PASS && b <= highest) {
    return ruleError('ILLEGAL_MOVE', 'bid-too-low', `${name} does not rank above the earlier bid ${BIDS[highest]}`);
  }
  s.bids[seat] = b;
  s.bidsMade++;
  if (ev) ev.push({ type: 'bid', seat, bid: BIDS[b] });
  if (s.bidsMade < ACTIVE) {
    s.toMove = nextSeat(s, seat);
    return null;
  }
  const top = highestBid(s);
  if (top === PASS) {
    // All passed: the last active player to bid must play.
    s.declarer = seat;
    s.bid = PLAY;
  } else {
    s.declarer = s.bids.indexOf(top);
    s.bid = top;
  }
  if (ev) ev.push({ type: 'declarer', seat: s.declarer, bid: BIDS[s.bid] });
  if (s.bid === DOUBLE_MISERE) {
    startPlay(s); // the talon stays untouched and hidden
    return null;
  }
  const taken: Card[] = [];
  while (s.talonPos < s.talonLen) {
    const card = s.talon[s.talonPos++];
    addCard(s.hands, s.declarer, card);
    taken.push(card);
  }
  if (ev) ev.push({ type: 'talonTaken', seat: s.declarer, cards: taken });
  s.phase = PH_DISCARD;
  s.toMove = s.declarer;
  return null;
}

function discard(s: State, seat: Seat, cards: readonly Card[], ev: GameEvent[] | null): RuleError | null {
  if (cards.length !== TALON) {
    return ruleError('ILLEGAL_MOVE', 'discard-two', `discard exactly ${TALON} cards, not ${cards.length}`);
  }
  const bad = ownCardsError(s, seat, cards);
  if (bad) return bad;
  for (const card of cards) {
    removeCard(s.hands, seat, card);
    addCard(s.discards, seat, card);
  }
  if (ev) ev.push({ type: 'discarded', seat, cards: [...cards] });
  if (s.bid === PLAY) {
    s.phase = PH_TRUMP;
    s.toMove = seat;
  } else {
    startPlay(s);
  }
  return null;
}

function nameTrump(s: State, seat: Seat, suit: string, ev: GameEvent[] | null): RuleError | null {
  const index = SUITS.indexOf(suit as never);
  if (index < 0) return ruleError('BAD_MOVE', 'bad-move', `unknown suit ${JSON.stringify(suit)}`);
  s.trump = index;
  if (ev) ev.push({ type: 'trumpNamed', seat, suit: SUITS[index] });
  startPlay(s);
  return null;
}

function wrongPhase(move: Move, s: State): RuleError {
  const want = s.phase === PH_BIDDING ? 'a bid' : s.phase === PH_DISCARD ? 'a discard' : s.phase === PH_TRUMP ? 'a trump' : 'a card';
  return ruleError('WRONG_PHASE', 'wrong-phase', `expected ${want}, not a ${move.kind} move`);
}

/** The declarer's score for t tricks. */
export function declarerScore(bid: number, t: number): number {
  if (bid === PLAY) return (t - 5) * 10;
  if (bid === MISERE) return t === 0 ? 50 : -20 * t;
  return t === 0 ? 100 : -40 * t;
}

const tables = new Map<number, Int8Array>();

/** Deck position → seat (or -1, the talon): 10 rounds over the active players from the dealer's left, then the talon. */
function destinations(s: State): Int8Array {
  const key = s.n * 8 + s.dealer;
  let table = tables.get(key);
  if (!table) {
    table = new Int8Array(32).fill(-1);
    let seat = s.dealer;
    for (let i = 0; i < 32 - TALON; i++) {
      seat = nextSeat(s, seat);
      table[i] = seat;
    }
    tables.set(key, table);
  }
  return table;
}

export const biddingFamily: Family = {
  name: 'bidding',

  startDeal(s, deck, ev) {
    dealByTable(s, deck, destinations(s));
    s.phase = PH_BIDDING;
    s.toMove = nextSeat(s, s.dealer);
    if (ev) {
      const hands: Card[][] = [];
      for (let seat = 0; seat < s.n; seat++) hands.push(maskCards(s.hands, seat));
      ev.push({ type: 'dealt', deal: s.dealNo, dealer: s.dealer, hands, talonSize: TALON });
    }
  },

  step(s, move, ev) {
    if (move.kind === 'bid' && s.phase === PH_BIDDING) return bid(s, move.seat, move.bid, ev);
    if (move.kind === 'discard' && s.phase === PH_DISCARD) return discard(s, move.seat, move.cards, ev);
    if (move.kind === 'trump' && s.phase === PH_TRUMP) return nameTrump(s, move.seat, move.suit, ev);
    return wrongPhase(move, s);
  },

  legal(s): LegalMoves {
    const seat = s.toMove;
    if (s.phase === PH_BIDDING) {
      const highest = highestBid(s);
      const top = s.rules.doubleMisere ? DOUBLE_MISERE : MISERE;
      const bids = [BIDS[PASS]];
      for (let b = highest + 1; b <= top; b++) bids.push(BIDS[b]);
      return { kind: 'bid', seat, bids };
    }
    if (s.phase === PH_DISCARD) return { kind: 'discard', seat, cards: maskCards(s.hands, seat), count: 2 };
    return { kind: 'trump', seat, suits: [...SUITS] };
  },

  scores(s) {
    const declarer = declarerScore(s.bid, s.tricks[s.declarer]);
    const defender = declarer < 0 ? -declarer / 2 : 0;
    const out: number[] = [];
    for (let seat = 0; seat < s.n; seat++) {
      out.push(seat === s.declarer ? declarer : seat === s.sitOut ? 0 : defender);
    }
    return out;
  },

  gameEnds(s) {
    for (let seat = 0; seat < s.n; seat++) if (s.totals[seat] >= s.rules.target) return true;
    return false;
  },

  dealOutcome(s, scores): BiddingDealOutcome {
    return {
      dealer: s.dealer,
      declarer: s.declarer >= 0 ? s.declarer : null,
      bid: s.bid >= 0 ? BIDS[s.bid] : null,
      trump: s.trump >= 0 ? SUITS[s.trump] : null,
      tricks: trickCounts(s),
      scores,
    };
  },

  visibleHand(s, seat) {
    return maskCards(s.hands, seat);
  },

  talonSize(s) {
    return s.talonLen - s.talonPos;
  },
};
