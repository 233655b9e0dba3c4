/**
 * A bot's thinking, as a worker thread of the bots' pool runs it (bot-thinkers.ts): what it gets
 * is the seat's view (BotInput) and the engine's options, never the game's state, so a bot sees
 * only what its seat sees; it answers the move chosen. Nothing here touches the database or the
 * move path: the main thread commits the move through the same door as everyone else.
 */
import { threadId } from 'node:worker_threads';
import { botMove, type BotAnswer, type BotInput, type BotLevel } from '@mizerka/bots';

export interface ThinkRequest {
  level: BotLevel;
  input: BotInput;
  seed: number;
  /** The engine's own cap on its thinking (the strong bot's deadline). */
  budgetMs: number;
  /** The strong bot's samples per decision (default: the engine's). */
  samples?: number;
}

export interface ThinkAnswer extends BotAnswer {
  /** The engine's time to choose, measured where it ran. */
  thinkMs: number;
  /** The thread that thought (0 is a process's main thread). */
  threadId: number;
}

export default function think({ level, input, seed, budgetMs, samples }: ThinkRequest): ThinkAnswer {
  const started = performance.now();
  const answer = botMove(level, input, samples === undefined ? { seed, budgetMs } : { seed, budgetMs, samples });
  return { ...answer, thinkMs: performance.now() - started, threadId };
}
