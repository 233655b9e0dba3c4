import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import { GameLogBus, type StoredGame } from '../games/index.js';

const GAME_CACHE_LIMIT = 20_000;

/**
 * The latest state of the games this process last read or wrote: a move on one of them needs no
 * read. Another instance's commit (its notice over Redis) drops the entry it made stale; one that
 * slips through is caught by the write's version guard, and the move is decided again on a fresh
 * read: never a lost or doubled move. Off (GAME_CACHE=off) every move reads.
 */
@Injectable()
export class GameCache {
  private readonly games: Map<string, StoredGame> | null;

  constructor(config: ConfigService<AppConfig, true>, bus: GameLogBus) {
    this.games = config.get('gameCache', { infer: true }) ? new Map() : null;
    bus.listenRemote((gameId, version) => {
      const cached = this.games?.get(gameId);
      if (cached && cached.version < version) this.games!.delete(gameId);
    });
  }

  get(gameId: string): StoredGame | undefined {
    return this.games?.get(gameId);
  }

  remember(gameId: string, game: StoredGame): void {
    if (!this.games) return;
    this.games.delete(gameId); // re-inserted last: the Map's order is the eviction order
    if (this.games.size >= GAME_CACHE_LIMIT) this.games.delete(this.games.keys().next().value!);
    this.games.set(gameId, game);
  }

  forget(gameId: string): void {
    this.games?.delete(gameId);
  }
}
