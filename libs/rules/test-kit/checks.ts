// Checks of the engine against the reference model, run after every deal and move of a game
// driven by playRandomGame. Each check throws CheckError with enough context to reproduce.
import {
  apply, cardName, currentPlayer, dealIndex, eventView, isOver, legalMoves, outcome, phase, encodeState, view,
} from '../src/index.js';
import type { Card, GameEvent, GameState, LegalMoves, Move, RuleError, Rules, Seat } from '../src/index.js';
import type { DealStart, PlayedGame, Step } from './driver.js';
import { canon, cardNamesIn, sameJson, sameSet } from './json.js';
import { GameModel } from './model.js';
import type { ModelEffect } from './model.js';

export class CheckError extends Error {}

export interface CheckSet {
  /** Engine's legalMoves / currentPlayer / phase equal the model's. */
  legal?: boolean;
  /** Hands, talon, discards and played cards account for the deck exactly (views + events), and match the model. */
  conservation?: boolean;
  /** No view or event view names a card its viewer may not know; views agree with the model. */
  views?: boolean;
  /** Events of each move are the expected ones (tricks, scores, talon order…). */
  events?: boolean;
  /** outcome(state) matches the model after every deal (and at every step if `outcomeEveryStep`). */
  outcome?: boolean;
  outcomeEveryStep?: boolean;
}

const names = (cs: readonly Card[]): string[] => cs.map(cardName);

function describeRules(rules: Rules): string {
  return `${rules.preset} ${JSON.stringify(rules.options)}`;
}

/** The outcome docs/rules.md prescribes for the model's game so far. */
export function expectedOutcome(m: GameModel): unknown {
  const contract = m.rules.family === 'contract';
  const deals: unknown[] = m.history.map((h) =>
    contract
      ? { dealer: h.dealer, contract: h.contract, tricks: h.tricks, scores: h.scores }
      : { dealer: h.dealer, declarer: h.declarer, bid: h.bid, trump: h.trump, tricks: h.tricks, scores: h.scores });
  const d = m.deal;
  if (d !== null && m.phase !== 'dealing' && m.phase !== 'over') {
    deals.push(contract
      ? { dealer: d.dealer, contract: d.contract, tricks: d.tricks, scores: null }
      : { dealer: d.dealer, declarer: d.declarer, bid: d.bid, trump: d.bid === 'play' ? d.trump : null, tricks: d.tricks, scores: null });
  }
  return { deals, totals: m.totals, finished: m.phase === 'over', winners: m.phase === 'over' ? m.winners : [] };
}

export class GameChecker {
  readonly model: GameModel;
  private deck: Card[] = [];
  /** Cards seen in cardPlayed events and discards seen in events, this deal (raw events). */
  private playedByEvents: Card[] = [];
  private discardsByEvents: Card[][] = [];
  private where = '';

  constructor(readonly rules: Rules, readonly firstDealer: Seat, readonly checks: CheckSet) {
    this.model = new GameModel(rules, firstDealer);
  }

  private fail(what: string, detail?: unknown): never {
    throw new CheckError(`${describeRules(this.rules)}, first dealer ${this.firstDealer}, ${this.where}: ${what}` +
      (detail === undefined ? '' : `\n${JSON.stringify(detail)}`));
  }

  private eq(what: string, actual: unknown, expected: unknown): void {
    if (!sameJson(actual, expected)) this.fail(what, { actual, expected });
  }

  onDeal = (d: DealStart): void => {
    this.where = `deal ${d.dealIndex} (dealer ${d.dealer}), after dealing`;
    this.deck = d.deck;
    this.playedByEvents = [];
    this.discardsByEvents = Array.from({ length: this.rules.players }, () => []);
    this.model.startDeal(d.deck);
    this.checkState(d.after, []);
  };

  onStep = (s: Step): void => {
    this.where = `deal ${s.dealIndex}, move ${s.moveIndex} ${JSON.stringify(s.move)}`;
    if (this.checks.legal) this.checkLegal(s.before, s.legal);
    const effect = this.model.apply(s.move);
    if (this.checks.events) this.checkEvents(s.move, s.events, effect);
    for (const e of s.events) {
      if (e.type === 'cardPlayed') this.playedByEvents.push(e.card);
      if (e.type === 'exchanged') this.discardsByEvents[e.seat].push(...e.discards);
      if (e.type === 'discarded') this.discardsByEvents[e.seat].push(...e.cards);
    }
    this.checkState(s.after, s.events);
  };

  /** After the game: outcome, end and winners. */
  finish(game: PlayedGame): void {
    this.where = `end of game (${game.dealsFinished} deals finished)`;
    this.eq('isOver', isOver(game.state), this.model.phase === 'over');
    if (this.checks.outcome) this.eq('outcome', outcome(game.state), expectedOutcome(this.model));
  }

  private checkLegal(state: GameState, legal: LegalMoves): void {
    const exp = this.model.expectedLegal();
    if (exp === null) return this.fail('engine offers moves where docs/rules.md has none', legal);
    this.eq('phase', phase(state), this.model.phase);
    this.eq('currentPlayer', currentPlayer(state), exp.seat);
    this.eq('legal move kind and seat', [legal.kind, legal.seat], [exp.kind, exp.seat]);
    switch (exp.kind) {
      case 'contract':
        if (legal.kind === 'contract' && !sameSet(legal.contracts, exp.contracts)) this.fail('contracts offered', { legal, expected: exp });
        break;
      case 'exchange':
        if (legal.kind === 'exchange' && (!sameSet(legal.cards, exp.cards) || legal.maxDiscards !== exp.maxDiscards)) {
          this.fail('exchange offered', { legal: { ...legal, cards: names(legal.cards) }, expected: { ...exp, cards: names(exp.cards) } });
        }
        break;
      case 'bid':
        if (legal.kind === 'bid') {
          const withoutPass = exp.bids.filter((b) => b !== 'pass');
          // All passed so far and this is the last bidder: docs/rules.md says this seat "must play"; an
          // engine may offer pass (then the seat becomes declarer with `play`) or withhold it.
          const ok = sameSet(legal.bids, exp.bids) || (exp.forcedLastBid && sameSet(legal.bids, withoutPass));
          if (!ok) this.fail('bids offered', { legal, expected: exp });
        }
        break;
      case 'discard':
        if (legal.kind === 'discard' && (!sameSet(legal.cards, exp.cards) || legal.count !== 2)) {
          this.fail('discard offered', { legal: names(legal.cards), expected: names(exp.cards) });
        }
        break;
      case 'trump':
        if (legal.kind === 'trump' && !sameSet(legal.suits, exp.suits)) this.fail('suits offered', { legal, expected: exp });
        break;
      case 'play':
        if (legal.kind === 'play' && !sameSet(legal.cards, exp.cards)) {
          this.fail('cards playable', { legal: names(legal.cards), expected: names(exp.cards) });
        }
        break;
    }
  }

  private checkEvents(move: Move, events: GameEvent[], effect: ModelEffect): void {
    const m = this.model;
    const d = m.deal!;
    const expectedTypes: string[] = [];
    const one = <T extends GameEvent['type']>(type: T): Extract<GameEvent, { type: T }> => {
      const es = events.filter((e) => e.type === type);
      if (es.length !== 1) this.fail(`expected one '${type}' event`, events);
      return es[0] as Extract<GameEvent, { type: T }>;
    };
    switch (move.kind) {
      case 'contract': {
        expectedTypes.push('contractChosen', 'handCompleted');
        const e = one('contractChosen');
        this.eq('contractChosen', [e.seat, e.contract], [move.seat, move.contract]);
        const h = one('handCompleted');
        for (let s = 0; s < this.rules.players; s++) {
          if (!sameSet(h.hands[s] ?? [], d.received[s])) this.fail(`handCompleted hand of seat ${s}`, { actual: names(h.hands[s] ?? []), expected: names(d.received[s]) });
        }
        break;
      }
      case 'exchange': {
        expectedTypes.push('exchanged');
        const e = one('exchanged');
        this.eq('exchanged seat', e.seat, move.seat);
        if (!sameSet(e.discards, move.discards)) this.fail('exchanged discards', { actual: names(e.discards), expected: names(move.discards) });
        // The talon is drawn in the order its cards were dealt (as a set: the order drawn within one exchange is not observable in a hand).
        if (!sameSet(e.drawn, effect.drawn!)) this.fail('exchanged drawn (next talon cards in dealing order)', { actual: names(e.drawn), expected: names(effect.drawn!) });
        break;
      }
      case 'bid': {
        expectedTypes.push('bid');
        const e = one('bid');
        this.eq('bid event', [e.seat, e.bid], [move.seat, move.bid]);
        if (effect.declarer) {
          expectedTypes.push('declarer');
          const dc = one('declarer');
          this.eq('declarer', [dc.seat, dc.bid], [effect.declarer.seat, effect.declarer.bid]);
        }
        if (effect.talonTaken) {
          expectedTypes.push('talonTaken');
          const t = one('talonTaken');
          this.eq('talonTaken seat', t.seat, effect.declarer!.seat);
          if (!sameSet(t.cards, effect.talonTaken)) this.fail('talonTaken cards', { actual: names(t.cards), expected: names(effect.talonTaken) });
        }
        break;
      }
      case 'discard': {
        expectedTypes.push('discarded');
        const e = one('discarded');
        this.eq('discarded seat', e.seat, move.seat);
        if (!sameSet(e.cards, move.cards)) this.fail('discarded cards', { actual: names(e.cards), expected: names(move.cards) });
        break;
      }
      case 'trump': {
        expectedTypes.push('trumpNamed');
        const e = one('trumpNamed');
        this.eq('trumpNamed', [e.seat, e.suit], [move.seat, move.suit]);
        break;
      }
      case 'play': {
        expectedTypes.push('cardPlayed');
        const e = one('cardPlayed');
        this.eq('cardPlayed', [e.seat, cardName(e.card)], [move.seat, cardName(move.card)]);
        if (effect.trick) {
          expectedTypes.push('trickTaken');
          const t = one('trickTaken');
          const x = effect.trick;
          // trick: 0-based or 1-based is not fixed by the README; leader, cards (in play order) and winner are.
          if (t.trick !== x.trick && t.trick !== x.trick + 1) this.fail('trickTaken trick number', { actual: t.trick, expected: x.trick });
          this.eq('trickTaken (leader, cards in play order, winner)', { leader: t.leader, cards: names(t.cards), winner: t.winner },
            { leader: x.leader, cards: names(x.cards), winner: x.winner });
        }
        if (effect.dealScored) {
          expectedTypes.push('dealScored');
          const s = one('dealScored');
          const x = effect.dealScored;
          this.eq('dealScored', { deal: s.deal, tricks: s.tricks, scores: s.scores, totals: s.totals }, x);
        }
        if (effect.gameOver) {
          expectedTypes.push('gameOver');
          const g = one('gameOver');
          this.eq('gameOver', { totals: g.totals, winners: [...g.winners].sort() }, effect.gameOver);
        }
        break;
      }
    }
    if (!sameSet(events.map((e) => e.type), expectedTypes)) this.fail('event types', { actual: events.map((e) => e.type), expected: expectedTypes });
  }

  private checkState(state: GameState, events: GameEvent[]): void {
    const m = this.model;
    if (this.checks.legal) {
      this.eq('phase', phase(state), m.phase);
      this.eq('currentPlayer', currentPlayer(state), m.toMove);
      this.eq('isOver', isOver(state), m.phase === 'over');
      // At the end there is no deal "being played or to be dealt"; the README leaves that index open.
      if (m.phase !== 'over') this.eq('dealIndex', dealIndex(state), m.dealIndex);
      if (m.phase === 'dealing' || m.phase === 'over') this.eq('legalMoves', legalMoves(state), null);
    }
    if (this.checks.conservation) this.checkConservation(state);
    if (this.checks.views) this.checkViews(state, events);
    if (this.checks.outcome && (this.checks.outcomeEveryStep || m.phase === 'dealing' || m.phase === 'over')) {
      this.eq('outcome', outcome(state), expectedOutcome(m));
    }
  }

  private checkConservation(state: GameState): void {
    const m = this.model;
    const d = m.deal!;
    const n = this.rules.players;
    const deckSet = new Set(this.deck.map(cardName));
    const views = Array.from({ length: n }, (_, s) => view(state, s));
    // From the public API alone: every card is in exactly one place.
    const seen = new Map<string, string>();
    const place = (c: string, where: string): void => {
      if (!deckSet.has(c)) this.fail(`${where} holds ${c}, which is not in this deal's deck`);
      const prev = seen.get(c);
      if (prev !== undefined) this.fail(`${c} is both in ${prev} and in ${where}`);
      seen.set(c, where);
    };
    views.forEach((v, s) => (v.hand ?? []).forEach((c) => place(c, `hand of seat ${s}`)));
    this.playedByEvents.forEach((c) => place(cardName(c), 'played cards'));
    this.discardsByEvents.forEach((ds, s) => ds.forEach((c) => place(cardName(c), `discards of seat ${s}`)));
    // Between deals (and at the end) the finished deal's talon is not part of any count.
    if (!m.paused && m.phase !== 'dealing' && m.phase !== 'over') {
      const talon = views[0].talonSize;
      if (seen.size + talon !== this.deck.length) {
        this.fail(`hands + played + discards + talon = ${seen.size} + ${talon}, not the ${this.deck.length} cards of the deck`);
      }
      views.forEach((v, s) => this.eq(`talonSize seen by seat ${s}`, v.talonSize, d.talon.length));
      views.forEach((v, s) => this.eq(`handSizes seen by seat ${s}`, v.handSizes, d.hands.map((h) => h.length)));
    }
    // Against the model: each hand is exactly the cards docs/rules.md puts there.
    views.forEach((v, s) => {
      const want = names(m.visibleHand(s));
      if (!sameSet(v.hand ?? [], want)) this.fail(`hand of seat ${s}`, { actual: v.hand, expected: want });
    });
  }

  private checkViews(state: GameState, events: GameEvent[]): void {
    const m = this.model;
    const n = this.rules.players;
    const toMove = m.toMove;
    for (let viewer: Seat | null = null; viewer === null || viewer < n; viewer = viewer === null ? 0 : viewer + 1) {
      const v = view(state, viewer);
      const known = new Set(names([...m.known(viewer)]));
      const text = JSON.stringify(v);
      const leaked = cardNamesIn(text).filter((c) => !known.has(c));
      if (leaked.length > 0) this.fail(`view(state, ${viewer}) names cards ${viewer === null ? 'a spectator' : 'this seat'} may not know: ${[...new Set(leaked)].join(' ')}`, v);
      for (const e of events) {
        const ev = eventView(e, viewer);
        const et = JSON.stringify(ev ?? null);
        const leakedE = cardNamesIn(et).filter((c) => !known.has(c));
        if (leakedE.length > 0) this.fail(`eventView(${e.type}, ${viewer}) names cards it may not know: ${[...new Set(leakedE)].join(' ')}`, ev);
      }
      this.eq(`view(${viewer}).viewer`, v.viewer, viewer);
      this.eq(`view(${viewer}).toMove`, v.toMove, toMove);
      this.eq(`view(${viewer}).phase`, v.phase, m.phase);
      this.eq(`view(${viewer}).totals`, v.totals, m.totals);
      this.eq(`view(${viewer}).over`, v.over, m.phase === 'over');
      if (viewer === null) {
        this.eq('spectator hand', v.hand, null);
        this.eq('spectator legalMoves', v.legalMoves, null);
      } else {
        if (viewer !== toMove) this.eq(`legalMoves in the view of seat ${viewer}, who is not to move`, v.legalMoves, null);
        else if (v.legalMoves === null) this.fail(`view of seat ${viewer}, who is to move, has no legalMoves`);
        else {
          const exp = m.expectedLegal()!;
          const lv = v.legalMoves as unknown as { kind: string; seat: Seat; cards?: string[] };
          this.eq(`legalMoves kind and seat in the view of seat ${viewer}`, [lv.kind, lv.seat], [exp.kind, exp.seat]);
          if ((exp.kind === 'play' || exp.kind === 'exchange' || exp.kind === 'discard') && !sameSet(lv.cards ?? [], names(exp.cards))) {
            this.fail(`legalMoves cards in the view of seat ${viewer}`, { actual: lv.cards, expected: names(exp.cards) });
          }
        }
        if (m.paused) {
          // At the contract pause a seat sees exactly its first six cards.
          this.eq(`hand size of seat ${viewer} at the pause`, (v.hand ?? []).length, 6);
        }
      }
      this.eq(`view(${viewer}) family, preset, players`, [v.family, v.preset, v.players], [this.rules.family, this.rules.preset, n]);
      this.eq(`view(${viewer}).winners`, [...v.winners].sort(), m.phase === 'over' ? m.winners : []);
      // README: { deal, dealer, tricks, scores } per finished deal (more fields are allowed).
      this.eq(`view(${viewer}).dealScores`, v.dealScores.map((x) => ({ deal: x.deal, dealer: x.dealer, tricks: x.tricks, scores: x.scores })),
        m.history.map((h, i) => ({ deal: i, dealer: h.dealer, tricks: h.tricks, scores: h.scores })));
      if (m.phase !== 'dealing' && m.phase !== 'over') this.checkDealView(v, viewer);
    }
  }

  /** The deal-related fields of a view, during a deal. */
  private checkDealView(v: ReturnType<typeof view>, viewer: Seat | null): void {
    const m = this.model;
    const d = m.deal!;
    const at = `view(${viewer})`;
    const cardsOf = (ps: { seat: Seat; card: Card }[]) => ps.map((p) => ({ seat: p.seat, card: cardName(p.card) }));
    this.eq(`${at}.deal`, v.deal, d.index);
    this.eq(`${at}.dealer`, v.dealer, d.dealer);
    this.eq(`${at}.tricks`, v.tricks, d.tricks);
    this.eq(`${at}.activeSeats`, [...v.activeSeats].sort(), [...d.active].sort());
    if (this.rules.family === 'contract') {
      this.eq(`${at}.exchanged`, v.exchanged, d.exchanged);
      this.eq(`${at}.contract`, v.contract, d.contract);
      this.eq(`${at}.chooser`, v.chooser, d.chooser);
      this.eq(`${at}.contractsLeft`, v.contractsLeft.map((cs) => [...cs].sort()),
        m.chosen.map((cs) => this.rules.contracts.filter((c) => !cs.includes(c)).sort()));
    } else {
      this.eq(`${at}.bids`, v.bids, d.bids);
      this.eq(`${at} declarer, bid, trump`, [v.declarer, v.bid, v.trump], [d.declarer, d.bid, d.bid === 'play' ? d.trump : null]);
    }
    if (d.trick.length > 0) {
      this.eq(`${at}.currentTrick`, v.currentTrick, { leader: d.trick[0].seat, cards: cardsOf(d.trick) });
    } else if (v.currentTrick !== null && v.currentTrick.cards.length > 0) {
      this.fail(`${at}.currentTrick has cards before anyone played to the trick`, v.currentTrick);
    }
    if (d.lastTrick !== null) {
      this.eq(`${at}.lastTrick`, v.lastTrick, { leader: d.lastTrick.leader, cards: cardsOf(d.lastTrick.cards), winner: d.lastTrick.winner });
    }
  }
}

/** Moves the current state would refuse, with the codes (and rule ids) docs/rules.md / README allow. */
export interface BadMove {
  why: string;
  move: unknown;
  codes: RuleError['code'][];
  rules?: string[];
}

/** Applies a move that must be refused: checks it is an error value (not a throw) with an allowed code. */
export function expectRefused(state: GameState, bad: BadMove, knownToMover: Set<string> | null): RuleError {
  let r: ReturnType<typeof apply>;
  try {
    r = apply(state, bad.move as Move);
  } catch (e) {
    throw new CheckError(`${bad.why}: apply threw instead of returning an error value: ${String(e)}\nmove ${JSON.stringify(bad.move)}`);
  }
  return expectError(r, bad, knownToMover);
}

/** Checks a refused result (of apply, deal, makeRules …) against the allowed codes and rule ids. */
export function expectError(r: { ok: true } | { ok: false; error: RuleError }, bad: BadMove, knownToMover: Set<string> | null = null): RuleError {
  if (r.ok) throw new CheckError(`${bad.why}: accepted ${JSON.stringify(bad.move)}`);
  const err = r.error;
  if (!bad.codes.includes(err.code)) throw new CheckError(`${bad.why}: code ${err.code} (rule ${err.rule}), expected ${bad.codes.join(' or ')}\nmove ${JSON.stringify(bad.move)}`);
  if (bad.rules && !bad.rules.includes(err.rule)) throw new CheckError(`${bad.why}: rule '${err.rule}' (code ${err.code}), expected ${bad.rules.join(' or ')}\nmove ${JSON.stringify(bad.move)}`);
  if (typeof err.rule !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(err.rule)) throw new CheckError(`${bad.why}: rule id not kebab-case: ${JSON.stringify(err.rule)}`);
  if (typeof err.message !== 'string' || err.message.length === 0) throw new CheckError(`${bad.why}: empty message`);
  if (knownToMover !== null) {
    const leaked = cardNamesIn(err.message).filter((c) => !knownToMover.has(c));
    if (leaked.length > 0) throw new CheckError(`${bad.why}: message names cards the mover may not know: ${leaked.join(' ')}: ${err.message}`);
  }
  return err;
}

/** Snapshot of a state through the public serialisation, to check that nothing changed it. */
export const snapshot = (state: GameState): string => canon(JSON.parse(encodeState(state)));
