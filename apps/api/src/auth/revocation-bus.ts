import { Injectable } from '@nestjs/common';
import { InstanceBus } from '../instance-bus/instance-bus.js';

type Listener = (tokenId: string) => void;

/**
 * Tells every instance that an API token was revoked, at once: the token cache drops it and its
 * live sockets and streams close. With REDIS_URL the id also goes to the other instances over the
 * instance bus; should that notice be lost (Redis down), they still learn of it from the database:
 * their token cache within AUTH_CACHE_SECONDS, their live connections at the next re-check.
 */
@Injectable()
export class RevocationBus {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly bus: InstanceBus) {
    bus.on('revoked', (tokenId) => this.deliver(tokenId));
  }

  /** A token of this instance's database was revoked (after the commit); resolves once the other instances have been sent it. */
  async revoked(tokenId: string): Promise<void> {
    this.deliver(tokenId);
    await this.bus.publishSettled('revoked', tokenId);
  }

  /** Runs every listener; one failing does not keep the others from closing what they hold. */
  deliver(tokenId: string): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(tokenId);
      } catch {
        // a listener's own problem; the revoke itself is committed
      }
    }
  }

  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
