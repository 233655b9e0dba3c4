import { describe, expect, it } from 'vitest';
import { makeRules, parseCard, type Move } from '@mizerka/rules';
import type { Bot, BotInput, BotLevel } from './bot.js';
import { BOTS, botMove } from './bot-move.js';
import { playGame } from './bots.test-kit.js';

function firstInput(preset: string): BotInput {
  const rules = makeRules(preset, {});
  if (!rules.ok) throw new Error(rules.error.message);
  let input: BotInput | null = null;
  playGame(rules.value, 0, 7, 1, (turn) => {
    input ??= turn.input;
    return BOTS.basic(turn.input, { seed: 0 });
  });
  return input as unknown as BotInput;
}

const throwing: Bot = () => {
  throw new Error('out of cheese');
};

describe('botMove', () => {
  const input = firstInput('classic');

  it('answers with the level asked for when it makes a legal move', () => {
    const answer = botMove('strong', input, { seed: 1, samples: 3 });
    expect(answer.level).toBe('strong');
    expect(answer.fellBack).toBeUndefined();
  });

  it('falls back to basic when the level throws, and says why', () => {
    const bots: Record<BotLevel, Bot> = { ...BOTS, strong: throwing };
    const answer = botMove('strong', input, { seed: 1 }, bots);
    expect(answer.level).toBe('basic');
    expect(answer.move).toEqual(BOTS.basic(input, { seed: 1 }));
    expect(answer.fellBack).toMatch(/strong threw: out of cheese/);
  });

  it('falls back when the level answers a move that is not legal', () => {
    const wrong: Bot = (i) => ({ kind: 'bid', seat: i.view.viewer ?? 0, bid: 'play' }) as Move;
    const answer = botMove('strong', input, { seed: 1 }, { ...BOTS, strong: wrong });
    expect(answer.level).toBe('basic');
    expect(answer.fellBack).toMatch(/strong: a bid move when a contract move is due/);
  });

  it('falls back to random when basic fails too', () => {
    const answer = botMove('strong', input, { seed: 1 }, { ...BOTS, strong: throwing, basic: throwing });
    expect(answer.level).toBe('random');
    expect(answer.fellBack).toMatch(/strong threw.*basic threw/);
  });

  it('throws only when no level can move: the view is not the turn of its viewer', () => {
    const notMyTurn: BotInput = { ...input, view: { ...input.view, legalMoves: null } };
    expect(() => botMove('basic', notMyTurn, { seed: 1 })).toThrow(/no bot could move/);
  });

  it('treats a card given twice in an exchange as not legal', () => {
    const exchange = (() => {
      let found: BotInput | null = null;
      const rules = makeRules('classic', {});
      if (!rules.ok) throw new Error();
      playGame(rules.value, 0, 9, 1, (turn) => {
        if (!found && turn.input.view.legalMoves?.kind === 'exchange') found = turn.input;
        return BOTS.basic(turn.input, { seed: 0 });
      });
      return found as unknown as BotInput;
    })();
    const seat = exchange.view.viewer ?? 0;
    const first = parseCard((exchange.view.hand ?? [])[0]) as number;
    const twice: Move = { kind: 'exchange', seat, discards: [first, first] };
    const answer = botMove('strong', exchange, { seed: 1 }, { ...BOTS, strong: () => twice });
    expect(answer.fellBack).toMatch(/not distinct cards of the hand/);
  });
});

describe('strong with a time cap', () => {
  it('still answers a legal move from at least one sample when budgetMs is 0', () => {
    const rules = makeRules('bidding', {});
    if (!rules.ok) throw new Error(rules.error.message);
    let moves = 0;
    playGame(rules.value, 1, 11, 2, (turn) => {
      const answer = botMove('strong', turn.input, { seed: moves++, budgetMs: 0 });
      expect(answer.fellBack).toBeUndefined();
      return answer.move;
    });
    expect(moves).toBeGreaterThan(30);
  });
});

describe('strong without the deal events', () => {
  it('still answers legal moves (it knows less, but nothing breaks)', () => {
    const rules = makeRules('classic', {});
    if (!rules.ok) throw new Error(rules.error.message);
    let moves = 0;
    playGame(rules.value, 2, 13, 1, (turn) => {
      const answer = botMove('strong', { view: turn.input.view, dealEvents: [] }, { seed: moves++, samples: 5 });
      expect(answer.fellBack).toBeUndefined();
      return answer.move;
    });
    expect(moves).toBe(1 + 3 + 39);
  });
});
