import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config.js';
import type { StoredGame } from '../games/index.js';

const GAME_CACHE_LIMIT = 20_000;

/**
 * The latest state of the games this process last read or wrote: a move on one of them needs no
 * read. The write's version guard still protects it, so a stale entry costs a CONFLICT, never a
 * lost or doubled move. Off (GAME_CACHE=off) every move reads.
 */
@Injectable()
export class GameCache {
  private readonly games: Map<string, StoredGame> | null;

  constructor(config: ConfigService<AppConfig, true>) {
    this.games = config.get('gameCache', { infer: true }) ? new Map() : null;
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
