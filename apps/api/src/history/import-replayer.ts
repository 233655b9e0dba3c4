import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Piscina } from 'piscina';
import type { AppConfig } from '../config/app-config.js';
import { DomainError } from '../common/errors.js';
import { planImport, type ImportPlanResult, type ImportTask } from './import-plan.js';

// Compiled, the worker is the .js beside this file; run from the TypeScript source (the tests),
// there is no .js to start a thread with, so the replay runs in-process there.
const COMPILED = import.meta.url.endsWith('.js');

/**
 * Replays imported records off the event loop, in a small pool of worker threads (piscina). The
 * queue is bounded: when every thread is busy and the queue full, an import is refused (RATE_LIMITED)
 * instead of holding memory for records that wait. Each player has one import under way at a time.
 */
@Injectable()
export class ImportReplayer implements OnApplicationShutdown {
  private readonly pool: Piscina | null;
  private readonly busy = new Set<string>();

  constructor(config: ConfigService<AppConfig, true>) {
    const threads = config.get('imports', { infer: true }).threads;
    this.pool =
      threads > 0 && COMPILED
        ? new Piscina({
            filename: new URL('./import-worker.js', import.meta.url).href,
            minThreads: 0,
            maxThreads: threads,
            maxQueue: threads * 4,
            idleTimeout: 30_000,
            // A record's replay is linear in its size; far past the largest, something is wrong.
            resourceLimits: { maxOldGenerationSizeMb: 256 },
          })
        : null;
  }

  /** The plan of `playerId`'s import; RATE_LIMITED when they have one under way or the pool is full. */
  async plan(playerId: string, task: ImportTask): Promise<ImportPlanResult> {
    if (this.busy.has(playerId)) {
      throw new DomainError('RATE_LIMITED', 'An import of yours is under way; send the next one when it is done', { limit: 'importsAtOnce' });
    }
    if (this.pool && this.pool.queueSize >= this.pool.options.maxQueue) {
      throw new DomainError('RATE_LIMITED', 'The server is busy importing records; try again shortly', { limit: 'importQueue' });
    }
    this.busy.add(playerId);
    try {
      return this.pool ? ((await this.pool.run(task)) as ImportPlanResult) : planImport(task);
    } finally {
      this.busy.delete(playerId);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }
}
