import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';

/** What instances tell each other: a game's log grew, players' feeds grew, a token was revoked, a chat room grew. */
export type BusChannel = 'game-log' | 'feed' | 'revoked' | 'chat' | 'tournament';

const CHANNELS: readonly BusChannel[] = ['game-log', 'feed', 'revoked', 'chat', 'tournament'];

export type BusState = 'single' | 'up' | 'down';

/**
 * Notices between server instances, after a commit (with REDIS_URL, over Redis pub/sub). A notice
 * only says where to look: PostgreSQL stays the truth, every reader reads after its own last
 * position, so a lost notice (Redis down or restarting) costs latency, never an event: followers
 * also re-read on a timer. A publish never waits: while Redis is away it is dropped at once, and
 * the subscriber connection reconnects by itself. Without REDIS_URL there is one instance and the
 * bus only delivers within it (each feature's own emitter does that; this carries nothing).
 */
@Injectable()
export class InstanceBus implements OnModuleInit, OnApplicationShutdown {
  /** Tells this instance's own notices apart from others' (it has delivered its own already). */
  readonly instanceId = randomUUID();
  private readonly log = new Logger('InstanceBus');
  private readonly handlers = new Map<BusChannel, Set<(payload: string) => void>>();
  private pub: Redis | null = null;
  private sub: Redis | null = null;
  private subscribed = false;
  private lastWarning = 0;
  private readonly reconnected = new Set<() => void>();
  private readonly echoes = new Map<string, Set<() => void>>();
  private readonly prefix: string;

  constructor(private readonly config: ConfigService<AppConfig, true>) {
    this.prefix = `${config.get('redisPrefix', { infer: true }) ?? 'mizerka:'}bus:`;
  }

  onModuleInit(): void {
    const url = this.config.get('redisUrl', { infer: true });
    if (!url) return;
    const common = { connectTimeout: 2000, retryStrategy: (times: number) => Math.min(times * 200, 2000), lazyConnect: false };
    this.pub = new Redis(url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500 });
    this.sub = new Redis(url, { ...common, maxRetriesPerRequest: null });
    for (const client of [this.pub, this.sub]) client.on('error', (error: Error) => this.warn(error));
    this.sub.on('message', (channel: string, message: string) => this.receive(channel, message));
    this.sub.on('ready', () => {
      // After an outage, notices were lost: followers re-read now rather than at their next timer.
      if (this.subscribed) for (const listener of [...this.reconnected]) listener();
      this.subscribed = true;
    });
    void this.sub.subscribe(...CHANNELS.map((c) => this.prefix + c)).catch((error: unknown) => this.warn(error));
  }

  /** Tells the other instances; this one's own listeners were told by the caller. */
  publish(channel: BusChannel, payload: string): void {
    if (!this.pub) return;
    this.pub.publish(this.prefix + channel, `${this.instanceId}|${payload}`).catch((error: unknown) => this.warn(error));
  }

  /**
   * Publishes and resolves once Redis has handed the notice back to this instance's own
   * subscriber: Redis writes a message to every subscriber at once, so by then it is on its way to
   * every other instance before any request this caller answers next (a revoke is refused on
   * another instance at the very next request). Gives up after `timeoutMs` (Redis away: the
   * others learn it from the database, more slowly).
   */
  async publishSettled(channel: BusChannel, payload: string, timeoutMs = 1000): Promise<void> {
    if (!this.pub || this.state() !== 'up') return;
    const key = `${channel}|${payload}`;
    let settle!: () => void;
    const echoed = new Promise<void>((resolve) => (settle = resolve));
    const waiting = this.echoes.get(key) ?? new Set();
    waiting.add(settle);
    this.echoes.set(key, waiting);
    const timer = setTimeout(settle, timeoutMs);
    try {
      this.publish(channel, payload);
      await echoed;
    } finally {
      clearTimeout(timer);
      waiting.delete(settle);
      if (waiting.size === 0 && this.echoes.get(key) === waiting) this.echoes.delete(key);
    }
  }

  /** Notices of `channel` from other instances. */
  on(channel: BusChannel, handler: (payload: string) => void): () => void {
    const set = this.handlers.get(channel) ?? new Set();
    set.add(handler);
    this.handlers.set(channel, set);
    return () => set.delete(handler);
  }

  /** Runs after the bus came back from an outage (notices may have been lost meanwhile). */
  onReconnect(listener: () => void): () => void {
    this.reconnected.add(listener);
    return () => this.reconnected.delete(listener);
  }

  /** single: no REDIS_URL; up: both connections ready; down: Redis does not answer (degraded, not dead). */
  state(): BusState {
    if (!this.pub || !this.sub) return 'single';
    return this.pub.status === 'ready' && this.sub.status === 'ready' ? 'up' : 'down';
  }

  private receive(channel: string, message: string): void {
    const bar = message.indexOf('|');
    if (bar < 0) return;
    const payload = message.slice(bar + 1);
    if (message.slice(0, bar) === this.instanceId) {
      for (const settle of [...(this.echoes.get(`${channel.slice(this.prefix.length)}|${payload}`) ?? [])]) settle();
      return;
    }
    for (const handler of [...(this.handlers.get(channel.slice(this.prefix.length) as BusChannel) ?? [])]) {
      try {
        handler(payload);
      } catch (error) {
        this.log.warn(`a ${channel} notice failed: ${String(error)}`);
      }
    }
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 30_000) return;
    this.lastWarning = now;
    this.log.warn(`Redis does not answer (${error instanceof Error ? error.message : String(error)}): other instances learn of changes by re-reading until it does`);
  }

  async onApplicationShutdown(): Promise<void> {
    const clients = [this.pub, this.sub];
    this.pub = this.sub = null;
    for (const client of clients) client?.disconnect();
  }
}
