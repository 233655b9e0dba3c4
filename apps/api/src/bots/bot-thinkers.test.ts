import { threadId } from 'node:worker_threads';
import { apply, currentPlayer, dealWithEvents, makeRules, newGame, phase, shuffledDeck, type GameEvent } from '@mizerka/rules';
import { basicMove, botMove, type BotInput } from '@mizerka/bots';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRng } from '../../../../libs/rules/test-kit/rng.js';
import { botInputOf } from '../moves/bot-move.js';
import { BotThinkerPool, ThinkersBusy, type BotThinker, type ThinkAnswer } from './bot-thinkers.js';

/** Seat views of a bidding deal played by basic bots: the card plays with a choice, where the strong bot searches. */
function cardChoices(): BotInput[] {
  const rules = makeRules('bidding', {});
  if (!rules.ok) throw new Error(rules.error.message);
  const dealt = dealWithEvents(newGame(rules.value, 0), shuffledDeck(rules.value, makeRng(3).hexSeed()));
  if (!dealt.ok) throw new Error(dealt.error.message);
  let state = dealt.value.state;
  const events: GameEvent[] = [...dealt.value.events];
  const inputs: BotInput[] = [];
  while (phase(state) !== 'dealing' && phase(state) !== 'over') {
    const input = botInputOf(state, currentPlayer(state)!, events);
    const legal = input.view.legalMoves;
    if (legal?.kind === 'play' && legal.cards.length >= 3) inputs.push(input);
    const next = apply(state, basicMove(input, { seed: 0 }));
    if (!next.ok) throw new Error(next.error.message);
    state = next.value.state;
    events.push(...next.value.events);
  }
  return inputs;
}

/** The event loop's longest stall (ms) while `work` runs, seen by a 10 ms timer started before it. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stall: number }> {
  let stall = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 10);
    last = now;
  }, 10);
  try {
    await new Promise((tick) => setTimeout(tick, 30)); // the timer ticking before the work: a measuring window, not a wait
    const value = await work();
    await new Promise((tick) => setTimeout(tick, 30)); // a stall just ended is seen at the next tick
    return { value, stall };
  } finally {
    clearInterval(timer);
  }
}

describe('the bots’ thinking pool', () => {
  const inputs = cardChoices();
  // One thread, started once for these tests (a worker thread loading the sources takes seconds).
  let pool: BotThinker;
  beforeAll(() => {
    pool = new BotThinkerPool({ threads: 1 });
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('thinks on a worker thread, and answers what the engine answers in process for the same seat view and seed', async () => {
    for (const input of inputs.slice(0, 3)) {
      // No budget: the samples decide, so the move is reproducible anywhere.
      const answer = await pool.think('a', { level: 'strong', input, seed: 42, budgetMs: 60_000, samples: 40 });
      expect(answer.threadId).not.toBe(threadId);
      expect(answer.threadId).toBeGreaterThan(0);
      expect(answer.move).toEqual(botMove('strong', input, { seed: 42, samples: 40 }).move);
      expect(answer.level).toBe('strong');
    }
  }, 60_000);

  it('leaves the event loop free while strong bots think', async () => {
    await pool.think('warm', { level: 'random', input: inputs[0], seed: 1, budgetMs: 0 }); // the thread has started
    // Two searches that each run to their budget (far more samples than a second allows).
    const thinking = () => Promise.all([0, 1].map((i) => pool.think(`p${i}`, { level: 'strong', input: inputs[i], seed: i, budgetMs: 700, samples: 1_000_000 })));
    const { value: answers, stall } = await longestStall(thinking);
    for (const a of answers) expect(a.thinkMs).toBeGreaterThanOrEqual(650);
    // On this thread each search would have held the loop for its whole budget; a loaded machine's
    // scheduling may still hold it a while, never most of a search.
    expect(stall).toBeLessThan(350);
  }, 60_000);

  it('serves waiting turns one owner after another, so one player’s many games do not hold back another’s turn', async () => {
    const done: string[] = [];
    const ask = (owner: string, i: number) =>
      pool.think(owner, { level: 'strong', input: inputs[i % inputs.length], seed: i, budgetMs: 60_000, samples: 30 }).then((a: ThinkAnswer) => {
        done.push(`${owner}${i}`);
        return a;
      });
    const many = [0, 1, 2, 3, 4, 5].map((i) => ask('a', i));
    const other = ask('b', 0);
    await Promise.all([...many, other]);
    // a0 was given the thread at once; b0 waits only for the next of a's turns, not for all of them.
    expect(done.indexOf('b0')).toBeLessThanOrEqual(2);
    expect(done.filter((d) => d.startsWith('a'))).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
  }, 60_000);

  it('refuses a turn past its bounds (in all, and per owner) with ThinkersBusy, and every turn once closed', async () => {
    const bounded = new BotThinkerPool({ threads: 1, maxWaiting: 3, maxWaitingPerOwner: 2 });
    const request = { level: 'strong' as const, input: inputs[0], seed: 1, budgetMs: 60_000, samples: 30 };
    const running = bounded.think('a', request); // on the thread (or about to be): not waiting
    const waiting = [bounded.think('a', request), bounded.think('a', request)];
    await expect(bounded.think('a', request)).rejects.toBeInstanceOf(ThinkersBusy); // a's share is full
    waiting.push(bounded.think('b', request));
    await expect(bounded.think('c', request)).rejects.toBeInstanceOf(ThinkersBusy); // the queue is full
    await Promise.all([running, ...waiting]);
    await bounded.close();
    await expect(bounded.think('a', request)).rejects.toBeInstanceOf(ThinkersBusy);
  }, 60_000);
});
