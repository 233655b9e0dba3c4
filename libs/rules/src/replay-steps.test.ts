// replay's onStep: the log a played game writes (apply / dealWithEvents / endGame, one copy of the
// state per step) is the log one in-place replay reports, step for step, events included.
import { describe, expect, it } from 'vitest';
import { dealWithEvents, endGame, newGame, replay, type GameEvent, type GameState, type ReplayStep } from './index.js';
import { apply, moveFromJson, parseCard, type Card } from './index.js';
import { makeRng, mustRules, playRandomGame } from '../test-kit/index.js';
import { PRESETS } from './rules.js';

describe('replay onStep', () => {
  it.each(PRESETS)('%s: the steps and their events are those of playing the record move by move', (preset) => {
    for (let seed = 1; seed <= 4; seed++) {
      const rules = mustRules(preset);
      const game = playRandomGame(rules, makeRng(seed * 31 + preset.length), { maxDeals: 4, maxMoves: seed === 4 ? 57 : undefined, keepSteps: false });
      const record = seed % 2 === 0 && !game.over ? { ...game.record, end: { seat: 1, reason: 'resigned' as const } } : game.record;
      const steps: ReplayStep[] = [];
      const replayed = replay(record, (s) => steps.push(s));
      if (!replayed.ok) throw new Error(JSON.stringify(replayed.error));

      const expected: { kind: string; dealIndex: number; move: unknown; events: GameEvent[] }[] = [];
      let state: GameState = newGame(rules, record.firstDealer);
      record.deals.forEach((d, dealIndex) => {
        const dealt = dealWithEvents(state, d.deck.map((c) => parseCard(c) as Card));
        if (!dealt.ok) throw new Error(dealt.error.message);
        state = dealt.value.state;
        expected.push({ kind: 'deal', dealIndex, move: null, events: dealt.value.events });
        for (const m of d.moves) {
          const move = moveFromJson(m);
          if (!move.ok) throw new Error(move.error.message);
          const r = apply(state, move.value);
          if (!r.ok) throw new Error(r.error.message);
          state = r.value.state;
          expected.push({ kind: 'move', dealIndex, move: m, events: r.value.events });
        }
      });
      if (record.end) {
        const r = endGame(state, record.end);
        if (!r.ok) throw new Error(r.error.message);
        expected.push({ kind: 'end', dealIndex: Math.max(0, record.deals.length - 1), move: null, events: r.value.events });
      }
      // Compared as JSON after the replay is over: an event that shared an array with the state
      // would show the state's later contents here.
      expect(JSON.parse(JSON.stringify(steps))).toEqual(JSON.parse(JSON.stringify(expected)));
    }
  });
});
