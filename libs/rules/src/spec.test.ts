// docs/rules.md's examples, checked through records: the "Worked examples" table, the two outcome JSON
// examples of the record section, the dealing order, the exchange and talon order, and a table of
// records that must be refused with a RecordError naming the deal, the move and the rule.
import { describe, expect, it } from 'vitest';
import { apply, deal, newGame, parseRecord, replay, view } from './index.js';
import type { Bid, Contract, GameRecord, Outcome, RecordError, RecordMove, Rules, Seat, Suit } from './index.js';
import {
  activeSeats, card, cards, completeDeal, dealingOrder, deckFor, leftOf, mustRules, names, scriptBiddingDeal,
  scriptContractDeal,
} from '../test-kit/index.js';
import type { ScriptedDeal } from '../test-kit/index.js';

function record(rules: Rules, firstDealer: Seat, deals: ScriptedDeal[]): GameRecord {
  return { format: 'mizerka-record/1', rules: { preset: rules.preset, options: rules.options }, firstDealer, deals: deals.map((d) => ({ deck: d.deck, moves: d.moves })) };
}

function outcomeOf(rec: GameRecord): Outcome {
  const parsed = parseRecord(JSON.stringify(rec));
  if (!parsed.ok) throw new Error(`parseRecord refused: ${JSON.stringify(parsed.error)}`);
  const r = replay(parsed.value);
  if (!r.ok) throw new Error(`replay refused: ${JSON.stringify(r.error)}`);
  return JSON.parse(JSON.stringify(r.value.outcome)) as Outcome;
}

/** Seat of a position name (docs/rules.md worked examples): C chooser, X across, R dealer's right, D dealer. */
function seatOf(rules: Rules, dealer: Seat, pos: 'C' | 'X' | 'R' | 'D'): Seat {
  const n = rules.players;
  return { C: (dealer + 1) % n, X: (dealer + 2) % n, R: (dealer + n - 1) % n, D: dealer }[pos];
}

type Pos = 'C' | 'X' | 'R' | 'D';
const contractRows: { preset: Rules['preset']; options?: Rules['options']; contract: Contract; tricks: Partial<Record<Pos, number>>; scores: Partial<Record<Pos, number>> }[] = [
  { preset: 'classic', contract: 'hearts', tricks: { C: 9, R: 3, D: 1 }, scores: { C: 2, R: -2, D: 0 } },
  { preset: 'classic', contract: 'spades', tricks: { C: 13, R: 0, D: 0 }, scores: { C: 6, R: -5, D: -1 } },
  { preset: 'classic', contract: 'mizerka', tricks: { C: 0, R: 4, D: 9 }, scores: { C: 1, R: 1, D: -2 } },
  { preset: 'classic', options: { mizerkaQuotas: 'same' }, contract: 'mizerka', tricks: { C: 0, R: 4, D: 9 }, scores: { C: 7, R: 1, D: -8 } },
  { preset: 'classic-4', contract: 'notrumps', tricks: { C: 5, X: 3, R: 1, D: 1 }, scores: { C: 1, X: 0, R: -1, D: 0 } },
  { preset: 'classic-4', contract: 'mizerka', tricks: { C: 0, X: 2, R: 3, D: 5 }, scores: { C: 1, X: 0, R: 0, D: -1 } },
];

describe('docs/rules.md worked examples, contract family', () => {
  for (const row of contractRows) {
    const label = `${row.preset} ${row.contract} ${JSON.stringify(row.options ?? {})}: tricks ${JSON.stringify(row.tricks)} → ${JSON.stringify(row.scores)}`;
    it(label, () => {
      const rules = mustRules(row.preset, row.options ?? {});
      for (let dealer = 0; dealer < rules.players; dealer++) {
        const tricks = new Array<number>(rules.players).fill(0);
        const scores = new Array<number>(rules.players).fill(0);
        for (const [pos, t] of Object.entries(row.tricks)) tricks[seatOf(rules, dealer, pos as Pos)] = t;
        for (const [pos, s] of Object.entries(row.scores)) scores[seatOf(rules, dealer, pos as Pos)] = s;
        const o = outcomeOf(record(rules, dealer, [scriptContractDeal(rules, dealer, row.contract, tricks)]));
        expect(o.deals, `dealer ${dealer}`).toStrictEqual([{ dealer, contract: row.contract, tricks, scores }]);
        expect(o.totals).toStrictEqual(scores);
        expect(o.finished).toBe(false);
        expect(o.winners).toStrictEqual([]);
      }
    });
  }

  it('the same examples as a later deal (dealer rotated by the deal index)', () => {
    // Deal 0 is any hearts deal; the example is deal 1, whose dealer is the first dealer's left.
    const rules = mustRules('classic');
    for (let first = 0; first < 3; first++) {
      const dealer1 = leftOf(3, first);
      const tricks = new Array<number>(3).fill(0);
      tricks[seatOf(rules, dealer1, 'C')] = 9;
      tricks[seatOf(rules, dealer1, 'R')] = 3;
      tricks[seatOf(rules, dealer1, 'D')] = 1;
      const o = outcomeOf(record(rules, first, [
        scriptContractDeal(rules, first, 'notrumps', [5, 4, 4]),
        scriptContractDeal(rules, dealer1, 'hearts', tricks),
      ]));
      const want = new Array<number>(3).fill(0);
      want[seatOf(rules, dealer1, 'C')] = 2;
      want[seatOf(rules, dealer1, 'R')] = -2;
      expect(o.deals[1]).toStrictEqual({ dealer: dealer1, contract: 'hearts', tricks, scores: want });
    }
  });
});

const biddingRows: { bid: Bid; t: number; declarer: number; defenders: number }[] = [
  { bid: 'play', t: 8, declarer: 30, defenders: 0 },
  { bid: 'play', t: 3, declarer: -20, defenders: 10 },
  { bid: 'play', t: 5, declarer: 0, defenders: 0 },
  { bid: 'misere', t: 0, declarer: 50, defenders: 0 },
  { bid: 'misere', t: 2, declarer: -40, defenders: 20 },
  { bid: 'double-misere', t: 1, declarer: -40, defenders: 20 },
];

describe('docs/rules.md worked examples, bidding family', () => {
  for (const row of biddingRows) {
    it(`${row.bid}, declarer takes ${row.t}: declarer ${row.declarer}, each defender ${row.defenders}`, () => {
      const trumps: (Suit | null)[] = row.bid === 'play' ? ['clubs', 'hearts', 'spades'] : [null];
      let cases = 0;
      for (const preset of ['bidding', 'bidding-4'] as const) {
        const rules = mustRules(preset, row.bid === 'double-misere' ? { doubleMisere: true } : {});
        for (let dealer = 0; dealer < rules.players; dealer++) {
          const active = activeSeats(rules, dealer);
          for (let pos = 0; pos < 3; pos++) {
            const trump = trumps[(dealer + pos) % trumps.length];
            const declarer = active[pos];
            const bids: Bid[] = active.map((_, i) => (i === pos ? row.bid : 'pass'));
            const defenders = active.filter((s) => s !== declarer);
            const tricks: (number | null)[] = new Array(rules.players).fill(null);
            tricks[declarer] = row.t;
            tricks[defenders[0]] = Math.ceil((10 - row.t) / 2);
            tricks[defenders[1]] = Math.floor((10 - row.t) / 2);
            const scripted = scriptBiddingDeal(rules, dealer, bids, trump, tricks);
            expect(scripted.declarer).toBe(declarer);
            const scores = new Array<number>(rules.players).fill(0);
            scores[declarer] = row.declarer;
            for (const d of defenders) scores[d] = row.defenders;
            const o = outcomeOf(record(rules, dealer, [scripted]));
            expect(o.deals, `${preset}, dealer ${dealer}, declarer ${declarer}`).toStrictEqual([
              { dealer, declarer, bid: row.bid, trump: row.bid === 'play' ? trump : null, tricks, scores },
            ]);
            expect(o.totals).toStrictEqual(scores);
            cases += 1;
          }
        }
      }
      expect(cases).toBe(21);
    });
  }

  it('if all pass, the last active player to bid is declarer with bid play', () => {
    for (const preset of ['bidding', 'bidding-4'] as const) {
      const rules = mustRules(preset);
      for (let dealer = 0; dealer < rules.players; dealer++) {
        const active = activeSeats(rules, dealer);
        const last = active[2];
        if (preset === 'bidding') expect(last).toBe(dealer); // with 3 players, the dealer
        const tricks: (number | null)[] = new Array(rules.players).fill(null);
        tricks[last] = 6;
        tricks[active[0]] = 2;
        tricks[active[1]] = 2;
        const scripted = scriptBiddingDeal(rules, dealer, ['pass', 'pass', 'pass'], 'diamonds', tricks);
        const scores = new Array<number>(rules.players).fill(0);
        scores[last] = 10;
        const o = outcomeOf(record(rules, dealer, [scripted]));
        expect(o.deals, `${preset}, dealer ${dealer}`).toStrictEqual([{ dealer, declarer: last, bid: 'play', trump: 'diamonds', tricks, scores }]);
      }
    }
  });

  it('the game ends after the first deal in which a total reaches the target', () => {
    // target 60: misère made (+50) twice by the same seat: 50 < 60, then 100 ≥ 60.
    const rules = mustRules('bidding', { target: 60 });
    const misereMade = (dealer: Seat, declarerPos: number): ScriptedDeal => {
      const active = activeSeats(rules, dealer);
      const tricks: (number | null)[] = new Array(3).fill(null);
      active.forEach((s, i) => (tricks[s] = i === declarerPos ? 0 : 5));
      return scriptBiddingDeal(rules, dealer, active.map((_, i) => (i === declarerPos ? 'misere' : 'pass')), null, tricks);
    };
    // Seat 1 declares in both deals: dealer 0 → seat 1 is position 0; dealer 1 → seat 1 is position 2.
    const one = outcomeOf(record(rules, 0, [misereMade(0, 0)]));
    expect([one.totals, one.finished, one.winners]).toStrictEqual([[0, 50, 0], false, []]);
    const two = outcomeOf(record(rules, 0, [misereMade(0, 0), misereMade(1, 2)]));
    expect([two.totals, two.finished, two.winners]).toStrictEqual([[0, 100, 0], true, [1]]);
    // A further deal is refused.
    const three = replay(record(rules, 0, [misereMade(0, 0), misereMade(1, 2), misereMade(2, 1)]));
    expect(three.ok).toBe(false);
    if (!three.ok) expect(three.error.dealIndex).toBe(2);
  });
});

describe('docs/rules.md outcome JSON examples', () => {
  it('a classic record whose second deal is still being played', () => {
    const rules = mustRules('classic');
    const deal0 = scriptContractDeal(rules, 0, 'hearts', [1, 7, 5]);
    const deal1 = scriptContractDeal(rules, 1, 'mizerka', [2, 0, 3]); // five tricks of thirteen
    const o = outcomeOf(record(rules, 0, [deal0, deal1]));
    expect(o).toStrictEqual({
      deals: [
        { dealer: 0, contract: 'hearts', tricks: [1, 7, 5], scores: [0, 0, 0] },
        { dealer: 1, contract: 'mizerka', tricks: [2, 0, 3], scores: null },
      ],
      totals: [0, 0, 0],
      finished: false,
      winners: [],
    });
  });

  it('a bidding-4 deal: dealer 1 sits out, declarer 3 plays spades and takes 6', () => {
    const rules = mustRules('bidding-4');
    const scripted = scriptBiddingDeal(rules, 1, ['pass', 'play', 'pass'], 'spades', [2, null, 2, 6]);
    expect(scripted.moves.slice(0, 3)).toStrictEqual([{ seat: 2, bid: 'pass' }, { seat: 3, bid: 'play' }, { seat: 0, bid: 'pass' }]);
    const o = outcomeOf(record(rules, 1, [scripted]));
    expect(o.deals[0]).toStrictEqual({ dealer: 1, declarer: 3, bid: 'play', trump: 'spades', tricks: [2, null, 2, 6], scores: [0, 0, 0, 10] });
    expect(o.totals).toStrictEqual([0, 0, 0, 10]);
  });

  it('undecided parts of a deal are null; tricks so far are reported', () => {
    const rules = mustRules('bidding');
    const scripted = scriptBiddingDeal(rules, 2, ['play', 'pass', 'pass'], 'hearts', [4, 3, 3]);
    const upTo = (k: number): Outcome => outcomeOf(record(rules, 2, [{ deck: scripted.deck, moves: scripted.moves.slice(0, k) }]));
    expect(upTo(0).deals).toStrictEqual([{ dealer: 2, declarer: null, bid: null, trump: null, tricks: [0, 0, 0], scores: null }]);
    expect(upTo(3).deals[0]).toMatchObject({ declarer: 0, bid: 'play', trump: null, scores: null });
    expect(upTo(5).deals[0]).toMatchObject({ declarer: 0, bid: 'play', trump: 'hearts', scores: null });
    const c = mustRules('short');
    const contractDeal = scriptContractDeal(c, 0, 'notrumps', [5, 4, 4]);
    expect(outcomeOf(record(c, 0, [{ deck: contractDeal.deck, moves: [] }])).deals)
      .toStrictEqual([{ dealer: 0, contract: null, tricks: [0, 0, 0], scores: null }]);
  });
});

describe('dealing order and the talon (docs/rules.md)', () => {
  it('contract family: rounds to left of dealer … dealer, talon; with 4 players the last 2 to the talon', () => {
    expect(dealingOrder(mustRules('classic'), 0).slice(0, 8)).toStrictEqual([1, 2, 0, 'talon', 1, 2, 0, 'talon']);
    const four = dealingOrder(mustRules('classic-4'), 2);
    expect(four.slice(0, 5)).toStrictEqual([3, 0, 1, 2, 'talon']);
    expect(four.slice(45)).toStrictEqual([3, 0, 1, 2, 'talon', 'talon', 'talon']);
    expect(four.length).toBe(52);
  });

  it('bidding family: 10 rounds over the active seats from the dealer\'s left, then 2 to the talon', () => {
    expect(dealingOrder(mustRules('bidding'), 1).slice(0, 3)).toStrictEqual([2, 0, 1]);
    const four = dealingOrder(mustRules('bidding-4'), 3);
    expect(four.slice(0, 3)).toStrictEqual([0, 1, 2]);
    expect(four.slice(27)).toStrictEqual([0, 1, 2, 'talon', 'talon']);
    expect(four.length).toBe(32);
  });

  it('the engine deals a deckFor deck to the chosen seats, showing only the first six at the pause', () => {
    for (const preset of ['classic', 'classic-4', 'short', 'short-4', 'bidding', 'bidding-4'] as const) {
      const rules = mustRules(preset);
      for (let dealer = 0; dealer < rules.players; dealer++) {
        const shuffled = [...rules.deck].reverse();
        const chosen = completeDeal(rules, dealer, [], []);
        // Use a non-trivial arrangement: the reversed deck, split by the same sizes.
        const sizes = chosen.hands.map((h) => h.length);
        const hands: number[][] = [];
        let at = 0;
        for (const size of sizes) {
          hands.push(shuffled.slice(at, at + size));
          at += size;
        }
        const talon = shuffled.slice(at);
        const deck = deckFor(rules, dealer, hands, talon);
        const dealt = deal(newGame(rules, dealer), deck);
        if (!dealt.ok) throw new Error(JSON.stringify(dealt.error));
        let state = dealt.value;
        if (rules.family === 'contract') {
          for (let s = 0; s < rules.players; s++) {
            expect([...view(state, s).hand!].sort(), `${preset} dealer ${dealer} seat ${s} at the pause`).toStrictEqual(names(hands[s].slice(0, 6)).sort());
          }
          const r = apply(state, { kind: 'contract', seat: leftOf(rules.players, dealer), contract: rules.contracts[0] });
          if (!r.ok) throw new Error(JSON.stringify(r.error));
          state = r.value.state;
        }
        for (let s = 0; s < rules.players; s++) {
          expect([...(view(state, s).hand ?? [])].sort(), `${preset} dealer ${dealer} seat ${s}`).toStrictEqual(names(hands[s]).sort());
        }
        expect(view(state, null).talonSize).toBe(talon.length);
      }
    }
  });

  it('exchange: chooser first, dealer last; each draws the next talon cards in dealing order', () => {
    const rules = mustRules('classic');
    const dealer = 2;
    const { hands, talon } = completeDeal(rules, dealer, [cards('2C 3C 4C'), cards('2D 3D'), cards('2H')], cards('AS KS QS JS TS'));
    const rec: GameRecord = {
      format: 'mizerka-record/1', rules: { preset: 'classic', options: {} }, firstDealer: dealer,
      deals: [{ deck: names(deckFor(rules, dealer, hands, talon)), moves: [
        { seat: 0, contract: 'hearts' },
        { seat: 0, exchange: ['2C', '3C'] },
        { seat: 1, exchange: ['2D'] },
        { seat: 2, exchange: [] },
      ] }],
    };
    const r = replay(rec);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const s = r.value.state;
    const hand = (seat: Seat): string[] => view(s, seat).hand!;
    expect(hand(0)).toEqual(expect.arrayContaining(['AS', 'KS', '4C']));
    expect(hand(0)).not.toEqual(expect.arrayContaining(['2C']));
    expect(hand(0)).not.toEqual(expect.arrayContaining(['3C']));
    expect(hand(1)).toEqual(expect.arrayContaining(['QS', '3D']));
    expect(hand(1)).not.toEqual(expect.arrayContaining(['2D']));
    expect(hand(2)).not.toEqual(expect.arrayContaining(['JS']));
    expect(view(s, 1).exchanged).toStrictEqual([2, 1, 0]);
    expect(view(s, null).talonSize).toBe(13 - 3);
    // The chooser leads the first trick.
    expect(view(s, null).toMove).toBe(0);
  });

  it('the docs/rules.md record example replays (contract hearts, exchanges 2, 0, 1, first lead AH)', () => {
    const rules = mustRules('classic');
    const { hands, talon } = completeDeal(rules, 0, [cards('4S'), cards('2C 3D AH'), []], []);
    const rec = {
      format: 'mizerka-record/1', rules: { preset: 'classic', options: {} }, firstDealer: 0, players: ['ala', 'bartek', 'celina'],
      deals: [{ deck: names(deckFor(rules, 0, hands, talon)), moves: [
        { seat: 1, contract: 'hearts' }, { seat: 1, exchange: ['2C', '3D'] }, { seat: 2, exchange: [] }, { seat: 0, exchange: ['4S'] }, { seat: 1, play: 'AH' },
      ] }],
    };
    const o = outcomeOf(rec as GameRecord);
    expect(o).toStrictEqual({ deals: [{ dealer: 0, contract: 'hearts', tricks: [0, 0, 0], scores: null }], totals: [0, 0, 0], finished: false, winners: [] });
  });
});

/** A complete short game: each chooser names hearts, notrumps, mizerka in turn. */
function shortGame(first: Seat): { rules: Rules; deals: ScriptedDeal[] } {
  const rules = mustRules('short');
  const deals: ScriptedDeal[] = [];
  for (let i = 0; i < 9; i++) {
    const dealer = (first + i) % 3;
    const contract = rules.contracts[Math.floor(i / 3)];
    const tricks = [[7, 5, 1], [1, 7, 5], [5, 1, 7]][i % 3].map((_, s, a) => a[(s + i) % 3]);
    deals.push(scriptContractDeal(rules, dealer, contract, tricks));
  }
  return { rules, deals };
}

describe('the end of a contract game', () => {
  it('short: 9 deals, each chooser names each contract once; the game is then over; winners share the top', () => {
    const { rules, deals } = shortGame(0);
    const o = outcomeOf(record(rules, 0, deals));
    expect(o.deals.length).toBe(9);
    expect(o.finished).toBe(true);
    const max = Math.max(...o.totals);
    expect(o.winners).toStrictEqual(o.totals.flatMap((t, s) => (t === max ? [s] : [])));
    expect(o.totals).toStrictEqual(o.deals.reduce((acc, d) => acc.map((x, s) => x + d.scores![s]), [0, 0, 0]));
    const eight = outcomeOf(record(rules, 0, deals.slice(0, 8)));
    expect([eight.finished, eight.winners]).toStrictEqual([false, []]);
  });
});

describe('equal totals share the place', () => {
  it('short: every deal made exactly (tricks = quotas) → totals all 0, all three win', () => {
    const rules = mustRules('short');
    const deals: ScriptedDeal[] = [];
    for (let i = 0; i < 9; i++) {
      const dealer = i % 3;
      const contract = rules.contracts[Math.floor(i / 3)];
      const tricks = new Array<number>(3).fill(0);
      const quotas = contract === 'mizerka' ? { C: 1, R: 5, D: 7 } : { C: 7, R: 5, D: 1 };
      for (const [pos, q] of Object.entries(quotas)) tricks[seatOf(rules, dealer, pos as Pos)] = q;
      deals.push(scriptContractDeal(rules, dealer, contract, tricks));
    }
    const o = outcomeOf(record(rules, 0, deals));
    expect([o.totals, o.finished, o.winners]).toStrictEqual([[0, 0, 0], true, [0, 1, 2]]);
  });

  it('bidding: both defenders reach the target together and share the win', () => {
    // target 30; a misère declarer takes 3 tricks: −60, each defender +30.
    const rules = mustRules('bidding', { target: 30 });
    const s = scriptBiddingDeal(rules, 0, ['misere', 'pass', 'pass'], null, [4, 3, 3]);
    const o = outcomeOf(record(rules, 0, [s]));
    expect(o.deals[0]).toStrictEqual({ dealer: 0, declarer: 1, bid: 'misere', trump: null, tricks: [4, 3, 3], scores: [30, -60, 30] });
    expect([o.totals, o.finished, o.winners]).toStrictEqual([[30, -60, 30], true, [0, 2]]);
  });
});

// ---------------------------------------------------------------------------------------------
// Records that must be refused.

function validClassic(): GameRecord {
  const rules = mustRules('classic');
  return record(rules, 0, [scriptContractDeal(rules, 0, 'hearts', [7, 5, 1])]);
}

interface BadRecordCase {
  why: string;
  input: () => unknown;
  /** Expected place of the error; null = the record as a whole. */
  dealIndex: number | null;
  moveIndex: number | null;
  rule?: string | string[];
}

const withDeck = (f: (deck: string[]) => string[]) => (): unknown => {
  const r = validClassic();
  r.deals[0].deck = f([...r.deals[0].deck]);
  return r;
};
const withMoves = (f: (moves: RecordMove[]) => unknown[]) => (): unknown => {
  const r = validClassic();
  (r.deals[0] as { moves: unknown[] }).moves = f([...r.deals[0].moves]);
  return r;
};
const patch = (p: (r: Record<string, unknown>) => void) => (): unknown => {
  const r = validClassic() as unknown as Record<string, unknown>;
  p(r);
  return r;
};

/** The valid classic deal with the first follower's card swapped for one of another suit from its hand. */
function followSuitBreak(): { moves: RecordMove[]; at: number } {
  const r = validClassic();
  const moves = r.deals[0].moves;
  // Every trick of a scripted deal is played in one suit; the second card of the first trick is
  // replaced by a card of another suit from the same seat's hand (which then must also follow).
  const at = 5; // contract, 3 exchanges, lead, then the first follower
  const seat = moves[at].seat;
  const led = moves[at - 1].play!;
  const theirs = new Set<number>();
  // The seat's hand: every card it plays in the deal.
  for (const m of moves) if (m.seat === seat && m.play) theirs.add(card(m.play));
  const other = [...theirs].find((c) => Math.floor(c / 13) !== Math.floor(card(led) / 13))!;
  const swapped = moves.map((m) => ({ ...m }));
  const j = swapped.findIndex((m) => m.seat === seat && m.play === names([other])[0]);
  swapped[j] = { ...swapped[j], play: swapped[at].play };
  swapped[at] = { ...swapped[at], play: names([other])[0] };
  return { moves: swapped, at };
}

const badRecords: BadRecordCase[] = [
  { why: 'malformed JSON', input: () => '{"format": "mizerka-record/1", ', dealIndex: null, moveIndex: null },
  { why: 'not an object', input: () => '[1, 2, 3]', dealIndex: null, moveIndex: null },
  { why: 'wrong format', input: patch((r) => (r.format = 'mizerka-record/2')), dealIndex: null, moveIndex: null },
  { why: 'no format', input: patch((r) => delete r.format), dealIndex: null, moveIndex: null },
  { why: 'unknown preset', input: patch((r) => (r.rules = { preset: 'poker', options: {} })), dealIndex: null, moveIndex: null },
  { why: 'unknown option', input: patch((r) => (r.rules = { preset: 'classic', options: { jokers: true } })), dealIndex: null, moveIndex: null },
  { why: 'option of the other family', input: patch((r) => (r.rules = { preset: 'classic', options: { doubleMisere: true } })), dealIndex: null, moveIndex: null },
  { why: 'bad option value', input: patch((r) => (r.rules = { preset: 'classic', options: { mizerkaQuotas: 'double' } })), dealIndex: null, moveIndex: null },
  { why: 'bad target', input: patch((r) => (r.rules = { preset: 'bidding', options: { target: -5 } })), dealIndex: null, moveIndex: null },
  { why: 'first dealer out of range', input: patch((r) => (r.firstDealer = 3)), dealIndex: null, moveIndex: null },
  { why: 'first dealer not an integer', input: patch((r) => (r.firstDealer = 0.5)), dealIndex: null, moveIndex: null },
  { why: 'deals not a list', input: patch((r) => (r.deals = {})), dealIndex: null, moveIndex: null },
  { why: 'unknown card in the deck', input: withDeck((d) => ((d[7] = 'ZZ'), d)), dealIndex: 0, moveIndex: null },
  { why: 'deck with a duplicate (not a permutation)', input: withDeck((d) => ((d[7] = d[8]), d)), dealIndex: 0, moveIndex: null },
  { why: 'deck one card short', input: withDeck((d) => d.slice(1)), dealIndex: 0, moveIndex: null },
  { why: 'deck of the bidding family in a classic game', input: withDeck((d) => d.filter((c) => '789TJQKA'.includes(c[0]))), dealIndex: 0, moveIndex: null },
  {
    why: 'deck of the contract family in a bidding game',
    input: () => ({ format: 'mizerka-record/1', rules: { preset: 'bidding', options: {} }, firstDealer: 0, deals: [{ deck: validClassic().deals[0].deck, moves: [] }] }),
    dealIndex: 0, moveIndex: null,
  },
  { why: 'a move of unknown shape', input: withMoves((m) => [m[0], { seat: 1, fly: 'AS' }]), dealIndex: 0, moveIndex: 1 },
  { why: 'a move with an unknown card', input: withMoves((m) => [...m.slice(0, 4), { seat: m[4].seat, play: 'ZZ' }]), dealIndex: 0, moveIndex: 4 },
  { why: 'a move by the wrong seat', input: withMoves((m) => [{ ...m[0], seat: (m[0].seat + 1) % 3 }]), dealIndex: 0, moveIndex: 0 },
  { why: 'a move of the wrong kind', input: withMoves((m) => [m[0], { seat: m[1].seat, play: m[4].play }]), dealIndex: 0, moveIndex: 1 },
  { why: 'a contract outside the rule set', input: withMoves((m) => [{ ...m[0], contract: 'misere' }]), dealIndex: 0, moveIndex: 0 },
  { why: 'a play not following suit', input: withMoves(() => followSuitBreak().moves), dealIndex: 0, moveIndex: 5, rule: 'follow-suit' },
  { why: 'a card not in hand', input: withMoves((m) => [...m.slice(0, 4), { seat: m[4].seat, play: m[5].play }]), dealIndex: 0, moveIndex: 4, rule: 'card-not-in-hand' },
  { why: 'a move after the deal is over', input: withMoves((m) => [...m, { seat: 1, play: 'AS' }]), dealIndex: 0, moveIndex: 43 },
];

describe('records that must be refused with a RecordError', () => {
  it('the valid base record replays', () => {
    expect(replay(validClassic()).ok).toBe(true);
  });

  for (const c of badRecords) {
    it(c.why, () => {
      const input = c.input();
      const text = typeof input === 'string' ? input : JSON.stringify(input);
      const parsed = parseRecord(text);
      let err: RecordError;
      if (!parsed.ok) {
        err = parsed.error;
      } else {
        const r = replay(parsed.value);
        expect(r.ok, 'replay should refuse').toBe(false);
        if (r.ok) return;
        err = r.error;
      }
      expect({ dealIndex: err.dealIndex, moveIndex: err.moveIndex }).toStrictEqual({ dealIndex: c.dealIndex, moveIndex: c.moveIndex });
      expect(typeof err.rule === 'string' && err.rule.length > 0, `rule ${JSON.stringify(err.rule)}`).toBe(true);
      expect(err.message.length).toBeGreaterThan(0);
      if (c.rule !== undefined) expect([c.rule].flat()).toContain(err.rule);
    });
  }

  it('exchanging more than maxDiscards: exchange-too-many, naming the deal and the move', () => {
    const r = validClassic();
    const m = r.deals[0].moves;
    // Chooser (seat 1) takes all 13 talon cards; the next seat then may take none.
    const chooserHand = m.filter((x) => x.seat === 1 && x.play).map((x) => x.play!);
    r.deals[0].moves = [m[0], { seat: 1, exchange: chooserHand }, { seat: 2, exchange: [m.find((x) => x.seat === 2 && x.play)!.play!] }];
    const out = replay(r);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatchObject({ dealIndex: 0, moveIndex: 2, rule: 'exchange-too-many' });
  });

  it('a contract chosen twice by the same chooser: contract-already-chosen', () => {
    const rules = mustRules('classic');
    const deals = [0, 1, 2].map((d) => scriptContractDeal(rules, d, (['hearts', 'spades', 'clubs'] as const)[d], [4, 4, 5]));
    deals.push(scriptContractDeal(rules, 0, 'hearts', [7, 5, 1])); // seat 1 chooses again at deal 3
    const out = replay(record(rules, 0, deals));
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatchObject({ dealIndex: 3, moveIndex: 0, rule: 'contract-already-chosen' });
  });

  it('a bid not above an earlier bid: bid-too-low; double-misère without the option: double-misere-disabled', () => {
    const rules = mustRules('bidding');
    const s = scriptBiddingDeal(rules, 0, ['misere', 'pass', 'pass'], null, [0, 5, 5]);
    const low = replay(record(rules, 0, [{ deck: s.deck, moves: [s.moves[0], { seat: 2, bid: 'play' }] }]));
    expect(low.ok).toBe(false);
    if (!low.ok) expect(low.error).toMatchObject({ dealIndex: 0, moveIndex: 1, rule: 'bid-too-low' });
    const dm = replay(record(rules, 0, [{ deck: s.deck, moves: [{ seat: 1, bid: 'double-misere' }] }]));
    expect(dm.ok).toBe(false);
    if (!dm.ok) expect(dm.error).toMatchObject({ dealIndex: 0, moveIndex: 0, rule: 'double-misere-disabled' });
  });

  it('a declarer discarding other than two cards: discard-two', () => {
    const rules = mustRules('bidding');
    const s = scriptBiddingDeal(rules, 0, ['play', 'pass', 'pass'], 'spades', [6, 2, 2]);
    const one = replay(record(rules, 0, [{ deck: s.deck, moves: [...s.moves.slice(0, 3), { seat: 1, discard: s.moves[3].discard!.slice(0, 1) }] }]));
    expect(one.ok).toBe(false);
    if (!one.ok) expect(one.error).toMatchObject({ dealIndex: 0, moveIndex: 3, rule: 'discard-two' });
  });

  it('a deal after an unfinished deal, and a deal after the game is over, are refused', () => {
    const rules = mustRules('classic');
    const d0 = scriptContractDeal(rules, 0, 'hearts', [7, 5, 1]);
    const d1 = scriptContractDeal(rules, 1, 'hearts', [7, 5, 1]);
    const unfinished = replay(record(rules, 0, [{ deck: d0.deck, moves: d0.moves.slice(0, 10) }, d1]));
    expect(unfinished.ok).toBe(false);
    if (!unfinished.ok) expect([0, 1]).toContain(unfinished.error.dealIndex);
    const { rules: short, deals } = shortGame(1);
    const extra = scriptContractDeal(short, (1 + 9) % 3, 'hearts', [7, 5, 1]);
    const over = replay(record(short, 1, [...deals, extra]));
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.error.dealIndex).toBe(9);
  });
});
