import type { OutboxEntry, OutboxEntryType } from './outbox-entries.js';

/** One entry with the write it came from. */
export interface OutboxItem<T extends OutboxEntryType = OutboxEntryType> {
  entry: Extract<OutboxEntry, { type: T }>;
  gameId: string;
  seq: number;
}

/**
 * Does what entries of one kind ask, for a batch of them in commit order (so that a consumer can
 * write them in one statement). Must be idempotent: a batch may be delivered again.
 */
export type OutboxConsume<T extends OutboxEntryType = OutboxEntryType> = (items: OutboxItem<T>[]) => Promise<void>;

/** What `@OutboxConsumer` records on a method. */
export interface OutboxConsumerMark {
  type: OutboxEntryType;
  name: string;
}

export const OUTBOX_CONSUMER = Symbol('outbox consumer');

/**
 * Makes the method a consumer of the outbox entries of `type`, named `name` (with the type, its
 * name in logs and in the job queue: `type.name`). Found at boot on every provider, like
 * `@OnEvent`; the relay then gives it a job of its own for each batch, so that it fails and is
 * retried without holding up any other consumer. The method must be idempotent.
 */
export function OutboxConsumer<T extends OutboxEntryType>(type: T, name: string) {
  return (_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<OutboxConsume<T>>): void => {
    const mark: OutboxConsumerMark = { type, name };
    Reflect.defineMetadata(OUTBOX_CONSUMER, mark, descriptor.value!);
  };
}

/** The mark `@OutboxConsumer` left on a method, if any. */
export function outboxConsumerMark(method: unknown): OutboxConsumerMark | undefined {
  return typeof method === 'function' ? (Reflect.getMetadata(OUTBOX_CONSUMER, method) as OutboxConsumerMark | undefined) : undefined;
}
