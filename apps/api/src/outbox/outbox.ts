import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { JobHelpers } from 'graphile-worker';
import type pg from 'pg';
import type { AppConfig } from '../config/app-config.js';
import { JobQueue, onQueuePool } from './job-queue.js';
import { outboxConsumerMark, type OutboxConsume, type OutboxItem } from './outbox-consumer.js';
import { OUTBOX_TASK, type OutboxDelivery, type OutboxEntry, type OutboxEntryType, type OutboxJob } from './outbox-entries.js';
import { relayBatchSql } from './outbox.sql.js';

export type { OutboxItem } from './outbox-consumer.js';

/**
 * A write this instance has just committed: its game, the log entry it ended at and, when the
 * writer has them at hand, the outbox entries it queued (null: see the game).
 */
export interface LocalCommit {
  gameId: string;
  seq: number;
  entries: readonly OutboxEntry[] | null;
}

/** Outbox rows moved into the job queue by one relay transaction, at most. */
const RELAY_BATCH = 500;

/**
 * The relay of the transactional outbox. A move writes its follow-ups into the `outbox` table in
 * its own statement. The relay then moves committed rows into the job queue in batches: one
 * transaction deletes up to RELAY_BATCH rows and adds one job per consumer with entries in them
 * (each with that consumer's entries, in commit order), so each row becomes work exactly once, a
 * consumer that fails is retried on its own without holding up the others, and the queue's NOTIFY
 * (a lock every commit would wait on) happens once per batch, not once per move. The instance that
 * committed a move relays at once; every instance that works jobs also sweeps on a timer, which
 * picks up rows left by an instance that crashed between its commit and its relay. Consumers are
 * methods marked `@OutboxConsumer(type, name)`, found on the providers at start-up.
 */
@Injectable()
export class Outbox implements OnModuleInit, BeforeApplicationShutdown {
  private readonly log = new Logger('Outbox');
  /** Consumers by `type.name`. */
  private readonly consumers = new Map<string, { type: OutboxEntryType; consume: OutboxConsume }>();
  /** The relay in flight, and whether another was asked for meanwhile. */
  private relaying: Promise<void> | null = null;
  private relayAgain = false;
  private relayTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** When the last relay began (performance.now()); -Infinity before the first. */
  private lastRelayAt = -Infinity;
  private readonly commitListeners: ((commit: LocalCommit) => void)[] = [];

  constructor(
    private readonly jobs: JobQueue,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const consume = (instance as Record<string, unknown>)[method];
        const mark = outboxConsumerMark(consume);
        if (mark) this.consume(mark.type, mark.name, (items) => (consume as OutboxConsume).call(instance, items));
      }
    }
    this.jobs.task(OUTBOX_TASK, (payload, helpers) => this.work(payload, helpers));
    this.jobs.everyPoll(async () => this.kick()); // what was left while no instance ran, or by one that died
  }

  /**
   * Adds a consumer of the entries of `type` under `name` (its id: `type.name`). The marked methods
   * come through here at start-up; a consumer added later is relayed to from then on.
   */
  consume<T extends OutboxEntryType>(type: T, name: string, consume: OutboxConsume<T>): void {
    const id = `${type}.${name}`;
    if (this.consumers.has(id)) throw new Error(`The outbox consumer ${id} is declared twice`);
    this.consumers.set(id, { type, consume: consume as unknown as OutboxConsume });
  }

  /** The consumers' ids (`type.name`). */
  get consumerIds(): string[] {
    return [...this.consumers.keys()];
  }

  /** One consumer's job: runs it on its entries of `jobs`, in their order. A throw fails this job alone. */
  async deliver(consumer: string, jobs: readonly OutboxJob[]): Promise<void> {
    const found = this.consumers.get(consumer);
    // Another instance relayed for a consumer this one lacks (a deploy under way): a retry may find one that has it.
    if (!found) throw new Error(`No outbox consumer ${consumer} on this instance`);
    const items: OutboxItem[] = [];
    for (const { gameId, seq, entries } of jobs) {
      for (const entry of entries) if (entry.type === found.type) items.push({ entry, gameId, seq } as OutboxItem);
    }
    if (items.length === 0) return;
    try {
      await found.consume(items);
    } catch (error) {
      this.log.warn(`consumer ${consumer} failed on ${items.length} entries: ${String(error)}`);
      throw error;
    }
  }

  private async work(payload: unknown, helpers: JobHelpers): Promise<void> {
    if (Array.isArray(payload)) {
      // A whole batch, queued by a server from before the per-consumer jobs: split it.
      const jobs = payload as OutboxJob[];
      const shares = this.consumerIds.map((consumer): OutboxDelivery => ({ consumer, jobs }));
      await helpers.addJobs(shares.map((share) => ({ identifier: OUTBOX_TASK, payload: share })));
      return;
    }
    const { consumer, jobs } = (payload ?? {}) as Partial<OutboxDelivery>;
    if (typeof consumer !== 'string' || !Array.isArray(jobs)) throw new Error(`An outbox job without a consumer: ${JSON.stringify(payload)}`);
    await this.deliver(consumer, jobs);
  }

  /**
   * Registers `listener` for the writes this instance commits, handed over on the next turn of the
   * event loop: a head start for work that the durable consumers would otherwise begin only after
   * the relay and the queue's pick-up (a bot's move). Never instead of a consumer: a commit whose
   * process dies before the listener runs is still relayed. Only on an instance that works jobs.
   */
  onCommit(listener: (commit: LocalCommit) => void): void {
    this.commitListeners.push(listener);
  }

  /** A write just committed its outbox row: relay it soon, and tell this instance's listeners. */
  committed(commit: LocalCommit): void {
    this.kick();
    if (!this.jobs.pool) return;
    for (const listener of this.commitListeners) {
      setImmediate(() => {
        try {
          listener(commit);
        } catch (error) {
          this.log.warn(`a commit listener failed on game ${commit.gameId}: ${String(error)}`);
        }
      });
    }
  }

  /**
   * Something was just committed to the outbox: relay it soon. Cheap to call often. Relays begin
   * at most once per JOB_RELAY_DELAY_MS, so that under load the rows of many moves go in one batch
   * (one NOTIFY); when none began that long ago, at once: a quiet server (a person against bots, a
   * correspondence game) does not wait for company. Relays never overlap (a call during one runs
   * another after it).
   */
  kick(): void {
    if (!this.jobs.pool || this.stopped) return; // this instance works no jobs; another's sweep relays them
    if (this.relaying || this.relayTimer) {
      this.relayAgain = this.relaying !== null;
      return;
    }
    const delayMs = this.config.get('jobs', { infer: true }).relayDelayMs;
    this.relayTimer = setTimeout(() => {
      this.relayTimer = null;
      this.lastRelayAt = performance.now();
      this.relaying = this.relayAll().finally(() => {
        this.relaying = null;
        if (this.relayAgain) {
          this.relayAgain = false;
          this.kick();
        }
      });
    }, Math.max(0, this.lastRelayAt + delayMs - performance.now()));
  }

  /** Moves committed outbox rows into the job queue until none is left. */
  private async relayAll(): Promise<void> {
    try {
      for (let pool = this.jobs.pool; pool && !this.stopped && (await this.relayBatch(pool)) === RELAY_BATCH; pool = this.jobs.pool);
    } catch (error) {
      this.log.warn(`relaying the outbox: ${String(error)}`); // the rows stay; the sweep tries again
    }
  }

  /**
   * One batch: deletes the oldest rows and adds, with the queue's own `add_jobs`, one job per
   * consumer that has entries among them. Rows whose entries no consumer takes are deleted all the
   * same (nothing to do for them).
   */
  private async relayBatch(pool: pg.Pool): Promise<number> {
    const consumers = [...this.consumers].map(([consumer, { type }]) => ({ consumer, type }));
    const rows = await onQueuePool(pool, relayBatchSql(OUTBOX_TASK, RELAY_BATCH, consumers));
    return rows[0]?.relayed ?? 0;
  }

  /** Ends relaying before the job queue closes its pool (onApplicationShutdown, after this). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.relayTimer) clearTimeout(this.relayTimer);
    this.relayTimer = null;
    await this.relaying;
  }
}
