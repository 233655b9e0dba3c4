import { Injectable } from '@nestjs/common';

type Listener = (tokenId: string) => void;

/**
 * Tells this instance that an API token was revoked, at once: the token cache drops it and its
 * live sockets (and their subscriptions) close. In-process for now. The seam for several
 * instances: `revoked` also publishes the id on a shared channel (Redis, with REDIS_URL), and
 * what arrives on that channel from other instances is handed to `deliver`. Until then other
 * instances learn of a revoke from the database: their token cache within AUTH_CACHE_SECONDS,
 * their live sockets at the next re-check (LiveConnections).
 */
@Injectable()
export class RevocationBus {
  private readonly listeners = new Set<Listener>();

  /** A token of this instance's database was revoked (after the commit). */
  revoked(tokenId: string): void {
    this.deliver(tokenId);
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
