import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  dealerOf,
  dealIndex,
  dealWithEvents,
  shuffledDeck,
  type GameEvent,
  type GameState,
} from '@mizerka/rules';

/** A deal just dealt: the new state, its 'dealt' events, and the Deal row's facts. */
export interface NewDeal {
  state: GameState;
  index: number;
  dealer: number;
  /** Secret until the game is over. */
  seed: string;
  /** Public from the start: lets players check afterwards that the deck was not changed. */
  seedHash: string;
  events: GameEvent[];
}

/**
 * A seed or seed hash as the hex the API shows (and seedHashOf hashes) → the bytes a deals row
 * stores (seed 16, seed_hash 32: half the hex text's size), and back. Seeds are lowercase hex
 * (randomBytes, boardDealSeed), so the round trip gives the same text.
 */
export function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function bytesHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export function seedHashOf(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

/**
 * A deals row's seed hash as the API shows it: the stored one, or (a compacted game's deal, whose
 * hash compaction drops as the seed's own: compaction.sql.ts dropSeedHashesSql) its seed's.
 */
export function dealSeedHash(deal: { seed: Uint8Array | null; seedHash: Uint8Array | null }): string {
  if (deal.seedHash) return bytesHex(deal.seedHash);
  if (!deal.seed) throw new Error('a deal with neither its seed nor its seed hash');
  return seedHashOf(bytesHex(deal.seed));
}

/**
 * The chance node: a fresh 128-bit seed, the deck it shuffles to, dealt into `state` (phase 'dealing').
 * `seed` is for the seeding script, which must deal reproducibly; the server always lets it be drawn.
 */
export function dealFresh(state: GameState, seed: string = randomBytes(16).toString('hex')): NewDeal {
  const dealt = dealWithEvents(state, shuffledDeck(state.rules, seed));
  // The deck comes from rules.deck and the state is in phase 'dealing': a refusal is a bug here.
  if (!dealt.ok) throw new Error(`dealing failed: ${dealt.error.rule}`);
  const index = dealIndex(dealt.value.state);
  return {
    state: dealt.value.state,
    index,
    dealer: dealerOf(state.rules, state.firstDealer, index),
    seed,
    seedHash: seedHashOf(seed),
    events: dealt.value.events,
  };
}

/**
 * A duplicate board: one committed seed from which every deal of every game played on the board is
 * derived (boardDealSeed), so that every table holds the same cards for each deal index. Made when
 * a tournament is created; `seedHash` is published then, `seed` kept secret until the board is released.
 */
export interface Board {
  /** 32 hex digits (128 bits), as a deal's seed. */
  seed: string;
  /** SHA-256 (hex) of `seed`: commits to it. */
  seedHash: string;
}

const BOARD_SEED = /^[0-9a-f]{32}$/;

/** A fresh board: a 128-bit seed and its hash. */
export function newBoard(): Board {
  const seed = randomBytes(16).toString('hex');
  return { seed, seedHash: seedHashOf(seed) };
}

export function isBoardSeed(seed: string): boolean {
  return BOARD_SEED.test(seed);
}

/**
 * The seed of deal `index` (0-based) of a game played on board `boardSeed`: the first 32 hex digits
 * of HMAC-SHA256(key = the board seed's text, message = "deal:" + index). The same for every table;
 * a deal's seed says nothing of the board's other deals, nor of the board seed.
 */
export function boardDealSeed(boardSeed: string, index: number): string {
  if (!isBoardSeed(boardSeed)) throw new RangeError('a board seed is 32 lowercase hex digits');
  if (!Number.isInteger(index) || index < 0) throw new RangeError('a deal index is an integer >= 0');
  return createHmac('sha256', boardSeed).update(`deal:${index}`).digest('hex').slice(0, 32);
}

/**
 * The first dealer of every game on board `boardSeed` with `players` seats: HMAC-SHA256(board seed,
 * "firstDealer") read as a 32-bit integer, modulo `players` (fixed by the board, so that deal i has
 * the same dealer, and so the same hands by seat, at every table).
 */
export function boardFirstDealer(boardSeed: string, players: number): number {
  if (!isBoardSeed(boardSeed)) throw new RangeError('a board seed is 32 lowercase hex digits');
  return createHmac('sha256', boardSeed).update('firstDealer').digest().readUInt32BE(0) % players;
}

/** The next deal of a game: from its board's seed when it is played on one, else from a fresh seed. */
export function dealNext(state: GameState, boardSeed: string | null): NewDeal {
  return boardSeed === null ? dealFresh(state) : dealFresh(state, boardDealSeed(boardSeed, dealIndex(state)));
}
