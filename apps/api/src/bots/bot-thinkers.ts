import { Piscina } from 'piscina';
import type { ThinkAnswer, ThinkRequest } from './bot-think.worker.js';

export type { ThinkAnswer, ThinkRequest } from './bot-think.worker.js';

/** Where bots think: a pool of worker threads in the server, anything else in a test. */
export interface BotThinker {
  /** The bot's answer for a turn of `owner`'s game (the player whose share of the thinking it uses). */
  think(owner: string, request: ThinkRequest): Promise<ThinkAnswer>;
  close(): Promise<void>;
}
export const BOT_THINKER = Symbol('BOT_THINKER');

/** The pool's answer when it takes no more turns (full, or closing): the turn is left to its durable job. */
export class ThinkersBusy extends Error {
  override readonly name = 'ThinkersBusy';
}

export interface ThinkerPoolOptions {
  threads: number;
  /** Turns waiting for a thread, at most; past it a turn is refused (ThinkersBusy). */
  maxWaiting?: number;
  /** Turns of one owner waiting, at most, so one player's many games never fill the queue. */
  maxWaitingPerOwner?: number;
  /**
   * A thought still running this long after the engine's own budget is stopped (its thread ends);
   * counted from when the turn gets a thread, a thread's start included.
   */
  overrunMs?: number;
}

interface Waiting {
  request: ThinkRequest;
  resolve: (answer: ThinkAnswer) => void;
  reject: (error: unknown) => void;
}

/**
 * Bots think on worker threads (piscina), so the event loop goes on answering requests while a
 * strong bot searches. Turns wait in a queue of their own, not piscina's, so that it can be fair:
 * one queue per owner, served in turn (round robin), a thread given to the next turn only when
 * one is free. The queue is bounded, in all and per owner; a refused turn is played later by its
 * durable job.
 */
export class BotThinkerPool implements BotThinker {
  private pool: Piscina<ThinkRequest, ThinkAnswer> | null = null;
  /** Owner → their waiting turns, oldest first; the Map's order is the round robin's. */
  private readonly waiting = new Map<string, Waiting[]>();
  private waitingCount = 0;
  private running = 0;
  private closed = false;
  private readonly maxWaiting: number;
  private readonly maxWaitingPerOwner: number;
  private readonly overrunMs: number;

  constructor(private readonly options: ThinkerPoolOptions) {
    this.maxWaiting = options.maxWaiting ?? 256;
    this.maxWaitingPerOwner = options.maxWaitingPerOwner ?? 32;
    this.overrunMs = options.overrunMs ?? 30_000;
  }

  think(owner: string, request: ThinkRequest): Promise<ThinkAnswer> {
    if (this.closed) return Promise.reject(new ThinkersBusy('the bots are stopping'));
    const queue = this.waiting.get(owner) ?? [];
    if (this.waitingCount >= this.maxWaiting || queue.length >= this.maxWaitingPerOwner) {
      return Promise.reject(new ThinkersBusy(`too many bot turns waiting (${this.waitingCount}, ${queue.length} of this player's)`));
    }
    return new Promise<ThinkAnswer>((resolve, reject) => {
      queue.push({ request, resolve, reject });
      this.waiting.set(owner, queue);
      this.waitingCount++;
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.waiting.values()) for (const turn of queue) turn.reject(new ThinkersBusy('the bots are stopping'));
    this.waiting.clear();
    this.waitingCount = 0;
    await this.pool?.close();
  }

  /** Gives free threads to the next turns, one owner after another. */
  private dispatch(): void {
    while (this.running < this.options.threads && this.waitingCount > 0) {
      const [owner, queue] = this.waiting.entries().next().value!;
      const turn = queue.shift()!;
      this.waiting.delete(owner);
      if (queue.length > 0) this.waiting.set(owner, queue); // to the back of the round
      this.waitingCount--;
      this.running++;
      this.threads()
        .run(turn.request, { signal: AbortSignal.timeout(turn.request.budgetMs + this.overrunMs) })
        .then(turn.resolve, turn.reject)
        .finally(() => {
          this.running--;
          this.dispatch();
        });
    }
  }

  /** The pool, started at the first turn: a server without bot games starts no thread. */
  private threads(): Piscina<ThinkRequest, ThinkAnswer> {
    this.pool ??= new Piscina<ThinkRequest, ThinkAnswer>({ ...workerFile(), minThreads: 0, maxThreads: this.options.threads, idleTimeout: 60_000 });
    return this.pool;
  }
}

/**
 * The worker's file: the compiled one beside this module in the built server. Under Vitest this
 * module is TypeScript source, which a plain worker thread cannot load; it then loads the source
 * through test/source-worker's module hooks (Oxc's type erasure, the "source" condition).
 */
function workerFile(): { filename: string; execArgv?: string[] } {
  if (import.meta.url.endsWith('.js')) return { filename: new URL('./bot-think.worker.js', import.meta.url).href };
  return {
    filename: new URL('./bot-think.worker.ts', import.meta.url).href,
    execArgv: ['--import', new URL('../../../../test/source-worker/register.mjs', import.meta.url).href],
  };
}
