// Builds deals whose tricks come out as a test wants: a small search that chooses, trick by trick,
// who wins and which cards are played, keeping every play legal (follow suit if able). Used by the
// specification tests to turn docs/rules.md's worked examples into records.
import type { Bid, Card, Contract, RecordMove, Rules, Seat, Suit } from '../src/index.js';
import { SUITS, activeSeats, clockwiseFrom, deckFor, handSize, leftOf, names, rankOf, suitOf } from './deck.js';
import { contractTrump, trickWinner } from './model.js';

export interface TrickPlan {
  rules: Rules;
  /** Active seats; play goes clockwise among them. */
  active: Seat[];
  leader: Seat;
  trump: Suit | null;
  /** Tricks each seat must take (index = seat; ignored for seats not active). */
  tricks: readonly (number | null)[];
  /** Cards the plan may not use (e.g. kept for the talon). */
  reserved?: readonly Card[];
  /** Search budget in nodes. */
  budget?: number;
}

export interface PlannedTricks {
  /** All plays in order. */
  plays: { seat: Seat; card: Card }[];
  /** Per seat, the cards it plays, in order. */
  played: Card[][];
  /** Per seat, suits it has shown void in (it may hold no further card of these). */
  voids: Set<number>[];
  /** Cards not used, ascending. */
  unused: Card[];
}

/** Finds plays for `sum(tricks)` tricks in which each seat takes exactly its number of tricks. */
export function planTricks(plan: TrickPlan): PlannedTricks {
  const { rules, active, trump } = plan;
  const n = rules.players;
  const total = active.reduce((a, s) => a + (plan.tricks[s] ?? 0), 0);
  const reserved = new Set(plan.reserved ?? []);
  const pool: Card[][] = [[], [], [], []];
  for (const c of rules.deck) if (!reserved.has(c)) pool[suitOf(c)].push(c);
  pool.forEach((p) => p.sort((a, b) => rankOf(a) - rankOf(b)));
  const need = Array.from({ length: n }, (_, s) => (active.includes(s) ? plan.tricks[s] ?? 0 : 0));
  const voids = Array.from({ length: n }, () => new Set<number>());
  const plays: { seat: Seat; card: Card }[] = [];
  let budget = plan.budget ?? 200_000;
  const order = (leader: Seat): Seat[] => clockwiseFrom(n, leader).filter((s) => active.includes(s));
  const take = (c: Card): void => {
    const p = pool[suitOf(c)];
    p.splice(p.indexOf(c), 1);
  };
  const give = (c: Card): void => {
    const p = pool[suitOf(c)];
    p.push(c);
    p.sort((a, b) => rankOf(a) - rankOf(b));
  };

  const search = (trick: number, leader: Seat): boolean => {
    if (--budget < 0) throw new Error('test-kit: planTricks ran out of budget');
    if (trick === total) return true;
    const seats = order(leader);
    const winners = seats.filter((s) => need[s] > 0).sort((a, b) => need[b] - need[a]);
    // A: everyone follows the led suit; the winner gets the highest of the cards used.
    for (const w of winners) {
      const suits = [0, 1, 2, 3]
        .filter((x) => pool[x].length >= seats.length && seats.every((s) => !voids[s].has(x)))
        .sort((a, b) => pool[b].length - pool[a].length);
      for (const x of suits) {
        const used = pool[x].slice(0, seats.length); // lowest cards of the suit
        const high = used[used.length - 1];
        const others = used.slice(0, -1);
        const cardsBySeat = new Map<Seat, Card>();
        cardsBySeat.set(w, high);
        seats.filter((s) => s !== w).forEach((s, i) => cardsBySeat.set(s, others[i]));
        used.forEach(take);
        for (const s of seats) plays.push({ seat: s, card: cardsBySeat.get(s)! });
        need[w] -= 1;
        if (search(trick + 1, w)) return true;
        need[w] += 1;
        plays.splice(plays.length - seats.length, seats.length);
        used.forEach(give);
      }
    }
    // B: someone cannot follow. The leader leads; each follower follows (lowest or highest of the
    // suit) or, showing void in it, plays the lowest card of another suit it is not void in.
    for (const x of [0, 1, 2, 3]) {
      if (voids[leader].has(x) || pool[x].length === 0) continue;
      for (const leadCard of new Set([pool[x][0], pool[x][pool[x].length - 1]])) {
        take(leadCard);
        const trickPlays: { seat: Seat; card: Card; newVoid: boolean }[] = [{ seat: leader, card: leadCard, newVoid: false }];
        const follow = (i: number): boolean => {
          if (i === seats.length) {
            const w = trickWinner(trickPlays, trump);
            if (need[w] <= 0) return false;
            need[w] -= 1;
            for (const p of trickPlays) plays.push({ seat: p.seat, card: p.card });
            const added = trickPlays.filter((p) => p.newVoid).map((p) => p.seat);
            added.forEach((s) => voids[s].add(x));
            if (search(trick + 1, w)) return true;
            added.forEach((s) => voids[s].delete(x));
            plays.splice(plays.length - trickPlays.length, trickPlays.length);
            need[w] += 1;
            return false;
          }
          const s = seats[i];
          const options: { card: Card; newVoid: boolean }[] = [];
          if (!voids[s].has(x) && pool[x].length > 0) {
            options.push({ card: pool[x][0], newVoid: false });
            if (pool[x].length > 1) options.push({ card: pool[x][pool[x].length - 1], newVoid: false });
          }
          for (const y of [0, 1, 2, 3]) {
            if (y !== x && !voids[s].has(y) && pool[y].length > 0) options.push({ card: pool[y][0], newVoid: true });
          }
          for (const o of options) {
            take(o.card);
            trickPlays.push({ seat: s, card: o.card, newVoid: o.newVoid });
            if (follow(i + 1)) return true;
            trickPlays.pop();
            give(o.card);
          }
          return false;
        };
        if (follow(1)) return true;
        give(leadCard);
      }
    }
    return false;
  };

  if (!search(0, plan.leader)) throw new Error(`test-kit: no legal way to take tricks ${JSON.stringify(plan.tricks)}`);
  const played = Array.from({ length: n }, (_, s) => plays.filter((p) => p.seat === s).map((p) => p.card));
  const unused = pool.flat().sort((a, b) => a - b);
  return { plays, played, voids, unused };
}

/** Gives `unused` cards to seats until their hands are full, never a card of a suit a seat showed void in. */
function fillHands(rules: Rules, active: Seat[], played: Card[][], voids: Set<number>[], unused: Card[], talonCount: number): { hands: Card[][]; talon: Card[] } {
  const size = handSize(rules);
  const hands = played.map((h) => [...h]);
  const spare = [...unused];
  for (const s of active) {
    while (hands[s].length < size) {
      const i = spare.findIndex((c) => !voids[s].has(suitOf(c)));
      if (i < 0) throw new Error('test-kit: cannot fill a hand without breaking a void');
      hands[s].push(spare.splice(i, 1)[0]);
    }
  }
  if (spare.length !== talonCount) throw new Error(`test-kit: ${spare.length} cards left for a talon of ${talonCount}`);
  return { hands, talon: spare };
}

export interface ScriptedDeal {
  /** Deck in dealing order, as card names (for a record). */
  deck: string[];
  moves: RecordMove[];
}

/**
 * A contract-family deal: the chooser (dealer's left) names `contract`, nobody exchanges, and the
 * tricks come out as `tricks` (per seat). When `tricks` add up to fewer than a full deal, only
 * that many tricks are played (the deal is left unfinished).
 */
export function scriptContractDeal(rules: Rules, dealer: Seat, contract: Contract, tricks: readonly number[]): ScriptedDeal {
  const n = rules.players;
  const active = activeSeats(rules, dealer);
  const chooser = leftOf(n, dealer);
  const planned = planTricks({ rules, active, leader: chooser, trump: contractTrump(contract), tricks });
  const talonCount = rules.deck.length - n * handSize(rules);
  const { hands, talon } = fillHands(rules, active, planned.played, planned.voids, planned.unused, talonCount);
  const deck = deckFor(rules, dealer, hands, talon);
  const moves: RecordMove[] = [{ seat: chooser, contract }];
  for (const s of clockwiseFrom(n, chooser)) moves.push({ seat: s, exchange: [] });
  for (const p of planned.plays) moves.push({ seat: p.seat, play: names([p.card])[0] });
  return { deck: names(deck), moves };
}

/**
 * A bidding-family deal: `bids` in bidding order (from the dealer's left among active seats); the
 * declarer (highest bid) takes the talon and discards those same two cards (play, misère), names
 * `trump` (play); tricks come out as `tricks` (per seat, null for the seat sitting out).
 */
export function scriptBiddingDeal(
  rules: Rules, dealer: Seat, bids: readonly Bid[], trump: Suit | null, tricks: readonly (number | null)[],
): ScriptedDeal & { declarer: Seat; bid: Bid } {
  const n = rules.players;
  const active = activeSeats(rules, dealer);
  if (bids.length !== active.length) throw new Error('test-kit: one bid per active seat');
  const rank: Record<Bid, number> = { pass: 0, play: 1, misere: 2, 'double-misere': 3 };
  // Non-pass bids rise strictly, so the highest is unique; if all pass, the last bidder plays.
  const best = bids.reduce((b, x, i) => (rank[x] > rank[bids[b]] ? i : b), 0);
  const allPassed = bids[best] === 'pass';
  const declarer = allPassed ? active[active.length - 1] : active[best];
  const bid: Bid = allPassed ? 'play' : bids[best];
  const effectiveTrump = bid === 'play' ? trump : null;
  if (bid === 'play' && trump === null) throw new Error('test-kit: a play declarer names a trump');
  const leader = clockwiseFrom(n, leftOf(n, declarer)).find((s) => active.includes(s))!;
  const planned = planTricks({ rules, active, leader, trump: effectiveTrump, tricks });
  const { hands, talon } = fillHands(rules, active, planned.played, planned.voids, planned.unused, 2);
  const deck = deckFor(rules, dealer, hands, talon);
  const moves: RecordMove[] = bids.map((b, i) => ({ seat: active[i], bid: b }));
  if (bid !== 'double-misere') moves.push({ seat: declarer, discard: names(talon) });
  if (bid === 'play') moves.push({ seat: declarer, trump: effectiveTrump! });
  for (const p of planned.plays) moves.push({ seat: p.seat, play: names([p.card])[0] });
  return { deck: names(deck), moves, declarer, bid };
}

export { SUITS };
