import { SUITS, type Card, type Contract, type Suit, type Xoshiro128 } from '@mizerka/rules';
import { exchangeDiscards, exchangeOrder } from './basic-bot.js';
import { dealValue, determinize, pastDeadline } from './deal-sampling.js';
import { FULL_RANKS, type Knowledge } from './knowledge.js';
import { rngFor } from './seat.js';
import { AVOID, Table, WIN } from './table.js';

/**
 * The contract family's exchange by sampling: how many cards to give (the least worth keeping
 * first, in basic's order) is chosen by dealing the unseen cards and the talon as they may lie,
 * letting the later seats exchange as basic does, and playing the deal out by the basic policy.
 */
export function sampledExchange(
  k: Knowledge,
  base: Table,
  exchange: { contract: Contract; chooser: number; talonSize: number; later: number[]; maxDiscards: number },
  rng: Xoshiro128,
  samples: number,
  deadline: number,
): Card[] {
  const order = exchangeOrder(k.hand, exchange.contract).map((c) => c.card);
  const basic = exchangeDiscards(k.hand, exchange.contract, exchange.maxDiscards);
  const sizes = Array.from({ length: exchange.maxDiscards + 1 }, (_, j) => j);
  const totals = new Float64Array(sizes.length);
  const sample = base.clone();
  const rest = new Uint16Array(4);
  const handSize = k.handSizes[k.seat];
  const t = new Table(k.n, k.trump, k.deckMask, -1);
  const hand = new Uint16Array(4);
  for (let s = 0; s < samples; s++) {
    if (pastDeadline(s, deadline)) break;
    sample.copyFrom(base);
    determinize(k, rng, sample, rest);
    // The talon is some of the cards out of play (the others are earlier seats' discards), in a random order.
    const dead = cardsOf(rest);
    shuffle(dead, rng);
    const talon = dead.slice(0, exchange.talonSize);
    for (let j = 0; j < sizes.length; j++) {
      t.copyFrom(sample);
      let pos = 0;
      for (let i = 0; i < sizes[j]; i++) {
        move(t.hands, k.seat, order[i], talon[pos++]);
        t.out[(order[i] / 13) | 0] |= 1 << order[i] % 13;
      }
      for (const seat of exchange.later) {
        for (let suit = 0; suit < 4; suit++) hand[suit] = t.hands[seat * 4 + suit];
        const gives = exchangeDiscards(hand, exchange.contract, Math.min(handSize, talon.length - pos));
        for (const card of gives) move(t.hands, seat, card, talon[pos++]);
      }
      t.toMove = exchange.chooser;
      t.playOut();
      totals[j] += dealValue(k, t, k.seat);
    }
  }
  let best = basic.length;
  for (let j = 0; j < sizes.length; j++) if (totals[j] > totals[best]) best = j;
  return best === basic.length ? basic : order.slice(0, best);
}

function move(hands: Uint16Array, seat: number, give: Card, draw: Card): void {
  hands[seat * 4 + ((give / 13) | 0)] &= ~(1 << give % 13);
  hands[seat * 4 + ((draw / 13) | 0)] |= 1 << draw % 13;
}

function cardsOf(masks: ArrayLike<number>): Card[] {
  const out: Card[] = [];
  for (let suit = 0; suit < 4; suit++) for (let m = masks[suit]; m !== 0; m &= m - 1) out.push(suit * 13 + 31 - Math.clz32(m & -m));
  return out;
}

function shuffle(cards: Card[], rng: Xoshiro128): void {
  for (let i = cards.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const x = cards[i];
    cards[i] = cards[j];
    cards[j] = x;
  }
}

/** Per players and contract: what the chooser's own tricks come to with six random cards. */
const baselines = new Map<string, number>();
const BASELINE_SAMPLES = 400;

/**
 * The contract by sampling: for each contract left, the chooser's average tricks (less for
 * mizerka) over deals that complete its six cards at random, all seats exchanging and playing as
 * basic does, less the same average for six random cards. Every seat chooses every contract once
 * in a game, so the hand goes to the contract it suits best compared with an ordinary hand; the
 * quotas, the same for any hand, drop out.
 */
export function sampledContract(n: number, six: readonly Card[], contracts: readonly Contract[], rng: Xoshiro128, samples: number, deadline: number): Contract {
  const values = contracts.map((c) => contractValue(n, six, c, rng, samples, deadline) - baseline(n, c));
  let best = 0;
  for (let i = 1; i < contracts.length; i++) if (values[i] > values[best]) best = i;
  return contracts[best];
}

function baseline(n: number, contract: Contract): number {
  const key = `${n} ${contract}`;
  let value = baselines.get(key);
  if (value === undefined) {
    // A fixed seed: the baseline, like the bot, is the same on every run.
    value = contractValue(n, [], contract, rngFor(0x5eed), BASELINE_SAMPLES, Infinity);
    baselines.set(key, value);
  }
  return value;
}

/** The chooser's mean tricks (negated for mizerka) when it holds `known` and the rest of the deal is random. */
function contractValue(n: number, known: readonly Card[], contract: Contract, rng: Xoshiro128, samples: number, deadline: number): number {
  const handSize = n === 3 ? 13 : 10;
  const trump = SUITS.indexOf(contract as Suit);
  const t = new Table(n, trump, FULL_RANKS, -1);
  const goal = contract === 'mizerka' ? AVOID : WIN;
  for (let seat = 0; seat < n; seat++) {
    t.next[seat] = (seat + 1) % n;
    t.goal[seat] = goal;
    t.team[seat] = seat;
  }
  // Seat 0 is the chooser, seat n - 1 the dealer.
  const knownSet = new Set(known);
  const unseen = Array.from({ length: 52 }, (_, c) => c).filter((c) => !knownSet.has(c));
  const hand = new Uint16Array(4);
  let total = 0;
  let done = 0;
  for (let s = 0; s < samples; s++) {
    if (pastDeadline(s, deadline)) break;
    shuffle(unseen, rng);
    t.hands.fill(0);
    t.out.fill(0);
    t.tricks.fill(0);
    for (const c of known) t.hands[(c / 13) | 0] |= 1 << c % 13;
    let at = 0;
    for (let seat = 0; seat < n; seat++) {
      for (let i = seat === 0 ? known.length : 0; i < handSize; i++) {
        const c = unseen[at++];
        t.hands[seat * 4 + ((c / 13) | 0)] |= 1 << c % 13;
      }
    }
    for (let seat = 0; seat < n; seat++) {
      for (let suit = 0; suit < 4; suit++) hand[suit] = t.hands[seat * 4 + suit];
      const gives = exchangeDiscards(hand, contract, Math.min(handSize, unseen.length - at));
      for (const card of gives) move(t.hands, seat, card, unseen[at++]);
    }
    t.trickLen = 0;
    t.toMove = 0;
    t.cardsLeft = n * handSize;
    t.playOut();
    total += goal === AVOID ? -t.tricks[0] : t.tricks[0];
    done++;
  }
  return total / Math.max(1, done);
}
