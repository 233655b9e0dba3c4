/**
 * npm run bench:rules — random legal games on one core, per preset family.
 * A deal = shuffle + deal + (contract + exchanges | bids + talon + discard + trump) + all tricks + scoring.
 * Moves are chosen by a seeded xoshiro128** (randomPlayout), through the in-place fast path;
 * one line also measures the public immutable API (apply copies the state on every move).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  apply,
  isOver,
  legalMoves,
  makeRules,
  newGame,
  deal,
  Xoshiro128,
  type GameState,
  type Move,
  type Rules,
} from '../src/index.js';
import { dealInPlace, randomPlayout, shuffleInPlace } from '../src/fast.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function rulesOf(preset: string): Rules {
  const r = makeRules(preset, {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A driver that plays deal after deal, starting a new game when one ends. */
function fastDriver(rules: Rules, seed: number) {
  const rng = new Xoshiro128(seed, 0x9e3779b9, 0x7f4a7c15, 0xbb67ae85);
  const deck = [...rules.deck];
  let state: GameState = newGame(rules, 0);
  return {
    shuffleOnly() {
      shuffleInPlace(deck, rng);
    },
    shuffleAndDeal() {
      shuffleInPlace(deck, rng);
      state = newGame(rules, 0);
      dealInPlace(state, deck);
    },
    deal() {
      if (isOver(state)) state = newGame(rules, 0);
      shuffleInPlace(deck, rng);
      const error = dealInPlace(state, deck);
      if (error) throw new Error(error.message);
      randomPlayout(state, rng);
    },
  };
}

/** The same games through the public immutable API: legalMoves + apply (a copy per move). */
function immutableDriver(rules: Rules, seed: number) {
  const rng = new Xoshiro128(seed, 1, 2, 3);
  const deck = [...rules.deck];
  let state: GameState = newGame(rules, 0);
  const pick = <T>(xs: readonly T[]): T => xs[rng.below(xs.length)];
  return {
    deal() {
      if (isOver(state)) state = newGame(rules, 0);
      shuffleInPlace(deck, rng);
      const dealt = deal(state, deck);
      if (!dealt.ok) throw new Error(dealt.error.message);
      state = dealt.value;
      for (let legal = legalMoves(state); legal; legal = legalMoves(state)) {
        let move: Move;
        switch (legal.kind) {
          case 'contract': move = { kind: 'contract', seat: legal.seat, contract: pick(legal.contracts) }; break;
          case 'exchange': move = { kind: 'exchange', seat: legal.seat, discards: legal.cards.slice(0, rng.below(Math.min(legal.maxDiscards, 3) + 1)) }; break;
          case 'bid': move = { kind: 'bid', seat: legal.seat, bid: pick(legal.bids) }; break;
          case 'discard': move = { kind: 'discard', seat: legal.seat, cards: legal.cards.slice(0, 2) }; break;
          case 'trump': move = { kind: 'trump', seat: legal.seat, suit: pick(legal.suits) }; break;
          case 'play': move = { kind: 'play', seat: legal.seat, card: pick(legal.cards) }; break;
        }
        const r = apply(state, move);
        if (!r.ok) throw new Error(r.error.message);
        state = r.value.state;
      }
    },
  };
}

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/**
 * Calls per second of fn over about `seconds` of wall time after a short warm-up, both per wall
 * second and per CPU second of this process (the fair figure when other processes share the cores).
 */
function rate(fn: () => void, seconds: number): { wall: number; cpu: number } {
  const warm = performance.now() + 300;
  while (performance.now() < warm) for (let i = 0; i < 64; i++) fn();
  let count = 0;
  const start = performance.now();
  const cpu0 = cpuSeconds();
  const end = start + seconds * 1000;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 256; i++) fn();
    count += 256;
    now = performance.now();
  }
  return { wall: count / ((now - start) / 1000), cpu: count / (cpuSeconds() - cpu0) };
}

/**
 * Bytes allocated per call: after a full gc(), run a small batch and read heapUsed; batches in
 * which new space shrank (a scavenge ran) are dropped; the median of the rest is reported.
 */
function bytesPer(fn: () => void, batch = 50, batches = 41): number {
  const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_used_size ?? 0;
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    gc();
    const h0 = process.memoryUsage().heapUsed;
    const n0 = newSpace();
    for (let i = 0; i < batch; i++) fn();
    const n1 = newSpace();
    const h1 = process.memoryUsage().heapUsed;
    if (n1 >= n0) samples.push((h1 - h0) / batch);
  }
  samples.sort((a, b) => a - b);
  return samples.length ? samples[samples.length >> 1] : NaN;
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const us = (perSecond: number) => (1e6 / perSecond).toFixed(2);

console.log(`mizerka rules bench: node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}, ${SECONDS} s per line (BENCH_SECONDS to change)`);
console.log('deals/s per CPU second of this process (process.cpuUsage) and per wall second; they agree on an idle core');
console.log('allocation: median heapUsed growth per deal over batches of 50 deals after gc() (--expose-gc set at run time), batches with a scavenge dropped\n');
for (const preset of ['classic', 'classic-4', 'short', 'bidding', 'bidding-4']) {
  const rules = rulesOf(preset);
  const fast = fastDriver(rules, 42);
  const r = rate(fast.deal, SECONDS);
  const bytes = bytesPer(fast.deal);
  console.log(
    `${preset.padEnd(10)} fast path  ${fmt(r.cpu).padStart(8)} deals/cpu-s (${us(r.cpu)} µs)  ${fmt(r.wall).padStart(8)} deals/wall-s  ~${fmt(bytes)} bytes/deal`,
  );
}
console.log('');
const classic = rulesOf('classic');
const parts = fastDriver(classic, 7);
const shuffles = rate(parts.shuffleOnly, 1).cpu;
const dealsOnly = rate(parts.shuffleAndDeal, 1).cpu;
console.log(`classic, where a deal's time goes (CPU): shuffle ${us(shuffles)} µs; shuffle + newGame + deal ${us(dealsOnly)} µs; the rest is the contract, 3 exchanges, 39 cards and scoring`);
for (const preset of ['classic', 'bidding']) {
  const slow = immutableDriver(rulesOf(preset), 11);
  const r = rate(slow.deal, Math.max(1, SECONDS / 2));
  const bytes = bytesPer(slow.deal, 20);
  console.log(`${preset.padEnd(10)} public API (legalMoves + apply, a copy per move) ${fmt(r.cpu).padStart(7)} deals/cpu-s  ~${fmt(bytes)} bytes/deal`);
}
