/**
 * npm run bench:bots — duplicate tournaments between the bot levels, on one core.
 * Every board (a shuffled deck and a dealer) is played once with every arrangement of the levels
 * across the seats, so the cards' luck cancels: a level's score on a board is its average over the
 * arrangements, and levels are compared board by board (paired), with 95% confidence intervals.
 *
 *   --deals N         boards per preset (default 150)
 *   --presets a,b     presets (default classic,bidding)
 *   --levels a,b,c    levels (default random,basic,strong)
 *   --samples S       strong: samples per card decision (default the library's STRONG_SAMPLES)
 *   --seed X          first board's seed (default 1)
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  apply,
  currentPlayer,
  dealWithEvents,
  eventView,
  makeRules,
  newGame,
  phase,
  view,
  Xoshiro128,
  type EventView,
  type GameEvent,
  type Rules,
} from '@mizerka/rules';
import { shuffleInPlace } from '@mizerka/rules/fast';
import { BOT_LEVELS, botMove, STRONG_SAMPLES, type BotLevel } from '../src/index.js';

const { values } = parseArgs({
  options: {
    deals: { type: 'string', default: '150' },
    presets: { type: 'string', default: 'classic,bidding' },
    levels: { type: 'string', default: BOT_LEVELS.join(',') },
    samples: { type: 'string', default: String(STRONG_SAMPLES) },
    seed: { type: 'string', default: '1' },
  },
});
const boards = Number(values.deals);
const presets = values.presets.split(',');
const levels = values.levels.split(',') as BotLevel[];
const samples = Number(values.samples);
const firstSeed = Number(values.seed);
for (const level of levels) if (!BOT_LEVELS.includes(level)) throw new Error(`unknown level ${level}`);

/** Distinct orders of a list (a multiset when the levels are fewer than the seats). */
function arrangements<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  const out: T[][] = [];
  const seen = new Set<T>();
  items.forEach((item, i) => {
    if (seen.has(item)) return;
    seen.add(item);
    for (const rest of arrangements([...items.slice(0, i), ...items.slice(i + 1)])) out.push([item, ...rest]);
  });
  return out;
}

function seatLevels(rules: Rules): BotLevel[][] {
  const list = Array.from({ length: rules.players }, (_, i) => levels[i % levels.length]);
  return arrangements(list);
}

const times = new Map<BotLevel, number[]>(levels.map((l) => [l, []]));
/** By level and decision: 'strong play', 'strong exchange', … */
const timesByKind = new Map<string, number[]>();
const fellBack = new Map<BotLevel, number>(levels.map((l) => [l, 0]));

/** One deal played out by the levels in their seats; the deal's scores per seat. */
function playDeal(rules: Rules, dealer: number, deck: number[], seats: BotLevel[], seed: number): number[] {
  const dealt = dealWithEvents(newGame(rules, dealer), deck);
  if (!dealt.ok) throw new Error(dealt.error.message);
  let state = dealt.value.state;
  const seen: EventView[][] = seats.map(() => []);
  const record = (events: GameEvent[]) => {
    for (const e of events) for (let s = 0; s < seats.length; s++) {
      const v = eventView(e, s);
      if (v) seen[s].push(v);
    }
  };
  record(dealt.value.events);
  for (let move = 0; phase(state) !== 'dealing' && phase(state) !== 'over'; move++) {
    const seat = currentPlayer(state) as number;
    const level = seats[seat];
    const input = { view: view(state, seat), dealEvents: seen[seat] };
    const started = performance.now();
    const answer = botMove(level, input, { seed: seed * 1000 + move, samples });
    const ms = performance.now() - started;
    times.get(level)!.push(ms);
    const kind = `${level} ${input.view.legalMoves?.kind}`;
    if (!timesByKind.has(kind)) timesByKind.set(kind, []);
    timesByKind.get(kind)!.push(ms);
    if (answer.fellBack) fellBack.set(level, fellBack.get(level)! + 1);
    const next = apply(state, answer.move);
    if (!next.ok) throw new Error(`${level} made an illegal move: ${next.error.message}`);
    state = next.value.state;
    record(next.value.events);
  }
  const scores = view(state, null).dealScores.at(-1)?.scores;
  if (!scores) throw new Error('the deal did not finish');
  return scores;
}

function meanCi(xs: number[]): { mean: number; half: number } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1);
  return { mean, half: 1.96 * Math.sqrt(variance / n) };
}

const fmt = (x: number, digits = 2) => (x >= 0 ? ' ' : '') + x.toFixed(digits);
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

console.log(`bench:bots  boards ${boards} per preset, levels ${levels.join(' ')}, strong samples ${samples}, seed ${firstSeed}`);
const startedAll = performance.now();
for (const preset of presets) {
  const made = makeRules(preset, {});
  if (!made.ok) throw new Error(made.error.message);
  const rules = made.value;
  const perBoard = new Map<BotLevel, number[]>(levels.map((l) => [l, []]));
  const started = performance.now();
  for (let b = 0; b < boards; b++) {
    const seed = firstSeed + b;
    const deck = [...rules.deck];
    shuffleInPlace(deck, new Xoshiro128(seed, 0x9e3779b9, 0x7f4a7c15, 0xbb67ae85 ^ presets.indexOf(preset)));
    const dealer = b % rules.players;
    const sum = new Map<BotLevel, number>(levels.map((l) => [l, 0]));
    const count = new Map<BotLevel, number>(levels.map((l) => [l, 0]));
    for (const seats of seatLevels(rules)) {
      const scores = playDeal(rules, dealer, deck, seats, seed);
      seats.forEach((level, seat) => {
        if (rules.family === 'bidding' && rules.players === 4 && seat === dealer) return; // sat out
        sum.set(level, sum.get(level)! + scores[seat]);
        count.set(level, count.get(level)! + 1);
      });
    }
    for (const level of levels) perBoard.get(level)!.push(sum.get(level)! / Math.max(1, count.get(level)!));
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${preset}: ${boards} boards x ${seatLevels(rules).length} arrangements, ${seconds.toFixed(0)} s`);
  console.log('  level     score per deal (95% CI)');
  for (const level of levels) {
    const { mean, half } = meanCi(perBoard.get(level)!);
    console.log(`  ${level.padEnd(8)} ${fmt(mean)} ± ${half.toFixed(2)}`);
  }
  console.log('  paired difference per deal (95% CI)');
  for (let i = 0; i < levels.length; i++) {
    for (let j = i + 1; j < levels.length; j++) {
      const a = perBoard.get(levels[j])!;
      const b = perBoard.get(levels[i])!;
      const { mean, half } = meanCi(a.map((x, k) => x - b[k]));
      const verdict = mean - half > 0 ? 'better' : mean + half < 0 ? 'worse' : 'not separated';
      console.log(`  ${levels[j]} - ${levels[i]}`.padEnd(20) + `${fmt(mean)} ± ${half.toFixed(2)}  (${verdict})`);
    }
  }
}
console.log('\ntime per move (all decisions, all presets), ms');
for (const level of levels) {
  const xs = [...times.get(level)!].sort((a, b) => a - b);
  if (xs.length === 0) continue;
  console.log(`  ${level.padEnd(8)} moves ${String(xs.length).padStart(7)}  p50 ${pct(xs, 50).toFixed(3)}  p99 ${pct(xs, 99).toFixed(3)}  max ${xs[xs.length - 1].toFixed(3)}  fell back ${fellBack.get(level)}`);
}
console.log('  by decision');
for (const [kind, list] of [...timesByKind].sort(([a], [b]) => a.localeCompare(b))) {
  const xs = [...list].sort((a, b) => a - b);
  console.log(`  ${kind.padEnd(17)} moves ${String(xs.length).padStart(7)}  p50 ${pct(xs, 50).toFixed(3)}  p99 ${pct(xs, 99).toFixed(3)}  max ${xs[xs.length - 1].toFixed(3)}`);
}
console.log(`\ntotal ${((performance.now() - startedAll) / 1000).toFixed(0)} s`);
