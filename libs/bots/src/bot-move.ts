import { moveToJson, type Move } from '@mizerka/rules';
import { basicMove } from './basic-bot.js';
import type { Bot, BotInput, BotLevel, BotOptions } from './bot.js';
import { randomMove } from './random-bot.js';
import { strongMove } from './strong-bot.js';

export const BOTS: Record<BotLevel, Bot> = { random: randomMove, basic: basicMove, strong: strongMove };

export interface BotAnswer {
  move: Move;
  /** The level that answered: the one asked for, or the one fallen back to. */
  level: BotLevel;
  /** Why the level asked for did not answer (it threw, or its move was not legal); absent when it did. */
  fellBack?: string;
}

/**
 * The level's move, falling back to basic and then random when a level throws or answers a move
 * that is not among input.view.legalMoves: a bot's failure never blocks a game. Throws only when
 * random fails too (the input is not the turn of its viewer).
 */
export function botMove(level: BotLevel, input: BotInput, options: BotOptions, bots: Record<BotLevel, Bot> = BOTS): BotAnswer {
  const order: BotLevel[] = level === 'random' ? ['random'] : level === 'basic' ? ['basic', 'random'] : [level, 'basic', 'random'];
  const reasons: string[] = [];
  for (const tried of order) {
    try {
      const move = bots[tried](input, options);
      const problem = illegal(input, move);
      if (problem === null) return reasons.length > 0 ? { move, level: tried, fellBack: reasons.join('; ') } : { move, level: tried };
      reasons.push(`${tried}: ${problem}`);
    } catch (error) {
      reasons.push(`${tried} threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no bot could move: ${reasons.join('; ')}`);
}

/** Why a move is not among the view's legal moves, or null when it is. */
export function illegal(input: BotInput, move: Move): string | null {
  const legal = input.view.legalMoves;
  if (legal === null) return 'the view has no legal moves';
  if (typeof move !== 'object' || move === null) return 'not a move';
  if (move.seat !== legal.seat) return `seat ${String(move.seat)} is not the seat to move`;
  if (move.kind !== legal.kind) return `a ${String(move.kind)} move when a ${legal.kind} move is due`;
  let json: ReturnType<typeof moveToJson>;
  try {
    json = moveToJson(move);
  } catch {
    return 'not a move';
  }
  switch (legal.kind) {
    case 'contract':
      return legal.contracts.includes(json.contract as never) ? null : `contract ${String(json.contract)} is not legal`;
    case 'bid':
      return legal.bids.includes(json.bid as never) ? null : `bid ${String(json.bid)} is not legal`;
    case 'trump':
      return legal.suits.includes(json.trump as never) ? null : `trump ${String(json.trump)} is not legal`;
    case 'play':
      return legal.cards.includes(json.play as string) ? null : `card ${String(json.play)} is not legal`;
    case 'exchange':
    case 'discard': {
      const cards = (legal.kind === 'exchange' ? json.exchange : json.discard) ?? [];
      const ok = cards.every((c) => legal.cards.includes(c)) && new Set(cards).size === cards.length;
      if (!ok) return `cards ${cards.join(' ')} are not distinct cards of the hand`;
      if (legal.kind === 'exchange' && cards.length > legal.maxDiscards) return `exchanges ${cards.length}, at most ${legal.maxDiscards}`;
      if (legal.kind === 'discard' && cards.length !== legal.count) return `discards ${cards.length}, not ${legal.count}`;
      return null;
    }
  }
}
