import { cardName, isCard, pushMaskCards, RANK_OF, SUIT_OF, SUITS, type Card } from './cards.js';
import type { GameEvent } from './events.js';
import { ruleError, type RuleError, type Seat } from './result.js';
import { dealerOf } from './rules.js';
import { nextSeat, PH_DEALING, PH_OVER, resetDeal, sitOutOf, type State } from './state.js';

/** Shared by both families: following suit, winning tricks, ending the deal and the game. */

/** Index in the trick of the winning card: highest trump, else highest card of the led suit. */
export function trickWinnerIndex(cards: ArrayLike<number>, len: number, trump: number): number {
  let best = 0;
  let bestSuit = SUIT_OF[cards[0]];
  for (let i = 1; i < len; i++) {
    const c = cards[i];
    const suit = SUIT_OF[c];
    if (suit === bestSuit) {
      if (RANK_OF[c] > RANK_OF[cards[best]]) best = i;
    } else if (suit === trump) {
      best = i;
      bestSuit = suit;
    }
  }
  return best;
}

/** Players in a trick: 3, or 4 with a 4-player contract game. */
export function playersPerTrick(s: State): number {
  return s.sitOut >= 0 ? s.n - 1 : s.n;
}

/**
 * The rank masks the player to move may play, per suit, written into out[0..3]:
 * the led suit when they hold it, else the whole hand. No allocation (the bench and bots use it).
 */
export function legalPlayMasks(s: State, out: Int32Array): void {
  const base = s.toMove * 4;
  if (s.trickLen > 0) {
    const led = SUIT_OF[s.trickCards[0]];
    const held = s.hands[base + led];
    if (held !== 0) {
      out[0] = out[1] = out[2] = out[3] = 0;
      out[led] = held;
      return;
    }
  }
  out[0] = s.hands[base];
  out[1] = s.hands[base + 1];
  out[2] = s.hands[base + 2];
  out[3] = s.hands[base + 3];
}

export function legalPlays(s: State): Card[] {
  const masks = new Int32Array(4);
  legalPlayMasks(s, masks);
  const out: Card[] = [];
  for (let suit = 0; suit < 4; suit++) pushMaskCards(out, suit, masks[suit]);
  return out;
}

/** Play a card for s.toMove, in place. */
export function playCard(s: State, card: Card, ev: GameEvent[] | null): RuleError | null {
  if (!isCard(card)) return ruleError('BAD_MOVE', 'unknown-card', 'not a card');
  const seat = s.toMove;
  const suit = SUIT_OF[card];
  const bit = 1 << RANK_OF[card];
  const base = seat * 4;
  if ((s.hands[base + suit] & bit) === 0) {
    return ruleError('ILLEGAL_MOVE', 'card-not-in-hand', `${cardName(card)} is not in your hand`);
  }
  if (s.trickLen > 0) {
    const led = SUIT_OF[s.trickCards[0]];
    if (suit !== led && s.hands[base + led] !== 0) {
      return ruleError('ILLEGAL_MOVE', 'follow-suit', `you hold ${SUITS[led]}, the led suit, and must follow it`);
    }
  }
  s.hands[base + suit] &= ~bit;
  s.trickCards[s.trickLen] = card;
  s.trickSeats[s.trickLen] = seat;
  s.trickLen++;
  if (ev) ev.push({ type: 'cardPlayed', seat, card });
  if (s.trickLen < playersPerTrick(s)) {
    s.toMove = nextSeat(s, seat);
    return null;
  }
  const winner = s.trickSeats[trickWinnerIndex(s.trickCards, s.trickLen, s.trump)];
  s.tricks[winner]++;
  s.trickNo++;
  s.lastLeader = s.leader;
  s.lastWinner = winner;
  s.lastLen = s.trickLen;
  for (let i = 0; i < 4; i++) {
    s.lastCards[i] = s.trickCards[i];
    s.lastSeats[i] = s.trickSeats[i];
  }
  if (ev) {
    ev.push({
      type: 'trickTaken',
      trick: s.trickNo - 1,
      leader: s.leader,
      cards: Array.from(s.trickCards.subarray(0, s.trickLen)),
      winner,
    });
  }
  s.trickLen = 0;
  s.leader = winner;
  s.toMove = winner;
  if (s.trickNo === s.handSize) finishDeal(s, ev);
  return null;
}

/** Tricks per seat as reported: null for a seat that sits the deal out. */
export function trickCounts(s: State): (number | null)[] {
  const out: (number | null)[] = [];
  for (let seat = 0; seat < s.n; seat++) out.push(seat === s.sitOut ? null : s.tricks[seat]);
  return out;
}

export function bestSeats(totals: ArrayLike<number>): Seat[] {
  let best = -Infinity;
  for (let i = 0; i < totals.length; i++) if (totals[i] > best) best = totals[i];
  const seats: Seat[] = [];
  for (let i = 0; i < totals.length; i++) if (totals[i] === best) seats.push(i);
  return seats;
}

function finishDeal(s: State, ev: GameEvent[] | null): void {
  const scores = s.fam.scores(s);
  for (let seat = 0; seat < s.n; seat++) s.totals[seat] += scores[seat];
  const finished = s.finished.slice();
  finished.push(s.fam.dealOutcome(s, scores));
  s.finished = finished;
  if (ev) ev.push({ type: 'dealScored', deal: s.dealNo, tricks: trickCounts(s), scores, totals: Array.from(s.totals) });
  s.toMove = -1;
  if (s.fam.gameEnds(s)) {
    s.phase = PH_OVER;
    s.winners = bestSeats(s.totals);
    if (ev) ev.push({ type: 'gameOver', totals: Array.from(s.totals), winners: [...s.winners] });
  } else {
    s.phase = PH_DEALING;
    s.dealNo++;
    s.dealer = dealerOf(s.rules, s.firstDealer, s.dealNo);
    s.sitOut = sitOutOf(s.rules, s.dealer);
    resetDeal(s);
  }
}
