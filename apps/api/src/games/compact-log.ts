import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, inflateRawSync } from 'node:zlib';
import {
  apply,
  cardName,
  dealIndex,
  decodeState,
  encodeState,
  endGame,
  makeRules,
  moveFromJson,
  newGame,
  parseCard,
  phase,
  view,
  type EndReason,
  type GameEvent,
  type GameState,
} from '@mizerka/rules';
import { dealFresh } from './dealing.js';
import { eventViews } from './event-views.js';
import type { LogRow } from './log-row.js';

// A finished game's event log as one value (compact_logs.entries): per entry only what the rules
// cannot tell again. The rules' events, each entry's deal index and a retried move's answer are
// rebuilt by replaying the moves on the deals' seeds; player ids come from the seats. Format 2:
//
//   byte 0: the format (2), byte 1: 0 = the rest as is, 1 = the rest deflated (raw), 2 = brotli
//   varint entry count, varint the first entry's created_at (ms since 1970)
//   per entry: a kind byte (kind | actor << 4 | has deadline << 6 | has key << 7),
//     a seat byte (seat + 1, 0 = none | cause << 3 | no response kept << 6 | has request hash << 7),
//     zigzag varint created_at − the previous entry's (ms), with a deadline zigzag varint deadline − created_at,
//     the move: a play as its card (one byte), a deal, end or back nothing, any other as a form byte
//     and what it says (MOVE_FORMS: its cards a byte each, or its one name, else its JSON),
//     with a key 8 bytes of SHA-256(key), with a request hash its first 8 bytes.
//
// Format 1 (still read) wrote every move but a play as varint length + JSON: the exchanges and
// discards, a card list each, were most of a short game's log after deflation. Logs are written
// with brotli (7 % smaller than deflate here, 5 ms a game at compaction, 0.05 ms to read);
// deflated ones, written before, are still read.
//
// Idempotency keys are kept hashed (64 bits, per player and game), request hashes cut to 64 bits:
// enough to know a retry and to tell it from another request under the same key.

export const COMPACT_FORMAT = 2;
const FORMATS_READ = new Set([1, 2]);
/** Byte 1: how the rest is stored. */
const COMPRESSION = { none: 0, deflate: 1, brotli: 2 } as const;

const KINDS = ['deal', 'contract', 'exchange', 'bid', 'discard', 'trump', 'play', 'end', 'away', 'back'] as const;
const ACTORS = ['player', 'system', 'bot'] as const;
const CAUSES = [null, 'resigned', 'timeout', 'forfeit', 'vacation', 'vacation-over'] as const;
/** Kinds whose move is written as JSON (a play is a card byte; deal, end, back have none). */
const JSON_MOVE = new Set(['contract', 'exchange', 'bid', 'discard', 'trump', 'away']);
const HASH_BYTES = 8;
/**
 * How format 2 writes a move of a JSON_MOVE kind, its first byte: `{ seat, <kind>: [cards] }` (the
 * entry's seat) as a count and a byte a card; `{ seat, <kind>: name }` as the name's length and
 * UTF-8; no move; anything else as format 1 did, varint length + JSON.
 */
const MOVE_FORMS = { json: 0, cards: 1, name: 2, none: 3 } as const;

/** A stored log entry with what only the moves path reads: all that compaction must keep. */
export interface FullLogRow extends LogRow {
  playerId: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  response: unknown;
}

/** An entry as decoded: what was stored, before the rules rebuild the rest. */
interface CodedEntry {
  kind: string;
  seat: number | null;
  actor: string;
  cause: string | null;
  createdAt: number;
  deadline: number | null;
  move: unknown;
  keyHash: Buffer | null;
  requestHash: string | null;
  responseKept: boolean;
}

/**
 * A play's move by seat and card, { seat, play }, one frozen object each (seats 0 to 6, and
 * none): decoding a log makes no object per play, most of its entries. Readers only read moves.
 */
const PLAYS = Array.from({ length: 8 }, (_, i) => Array.from({ length: 52 }, (_, card) => Object.freeze({ seat: i === 7 ? null : i, play: cardName(card) })));
/** The same plays as JSON text in jsonb's key order, as a record writes them: '{"play":"AS","seat":1}'. */
const PLAY_TEXTS = PLAYS.map((bySeat) => bySeat.map((m) => `{"play":"${m.play}","seat":${m.seat}}`));

/** What the rebuild needs of the game besides its log. */
export interface CompactGame {
  preset: string;
  options: unknown;
  firstDealer: number;
  /** Player ids by seat. */
  seats: readonly string[];
  /** The deals' seeds by index (a game dealt here: imported games are not compacted). */
  seeds: readonly string[];
}

export class NotCompactable extends Error {}

// ---- encoding -------------------------------------------------------------------------------

class Writer {
  private bytes: number[] = [];
  byte(b: number): void {
    this.bytes.push(b & 0xff);
  }
  varint(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) throw new NotCompactable(`not a varint: ${n}`);
    while (n >= 0x80) {
      this.bytes.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.bytes.push(n);
  }
  zigzag(n: number): void {
    this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
  }
  raw(buf: Uint8Array): void {
    for (const b of buf) this.bytes.push(b);
  }
  buffer(): Buffer {
    return Buffer.from(this.bytes);
  }
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  byte(): number {
    if (this.at >= this.buf.length) throw new Error('compact log: truncated');
    return this.buf[this.at++];
  }
  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
    }
  }
  zigzag(): number {
    const z = this.varint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }
  skip(n: number): void {
    if (this.at + n > this.buf.length) throw new Error('compact log: truncated');
    this.at += n;
  }
  raw(n: number): Buffer {
    if (this.at + n > this.buf.length) throw new Error('compact log: truncated');
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
}

const indexIn = <T>(list: readonly T[], value: T, what: string): number => {
  const i = list.indexOf(value);
  if (i < 0) throw new NotCompactable(`no code for ${what} ${String(value)}`);
  return i;
};

export function keyHashOf(key: string): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, HASH_BYTES);
}

/** The log's rows (all of them, seq 1 on, in order) as format 1; NotCompactable when they do not fit it. */
export function encodeLog(rows: readonly FullLogRow[]): Buffer {
  const w = new Writer();
  w.varint(rows.length);
  let last = rows.length > 0 ? rows[0].createdAt.getTime() : 0;
  w.varint(last);
  rows.forEach((r, i) => {
    if (r.seq !== i + 1) throw new NotCompactable(`entry ${i + 1} has seq ${r.seq}`);
    const kind = indexIn(KINDS, r.kind as (typeof KINDS)[number], 'kind');
    const actor = indexIn(ACTORS, r.actor as (typeof ACTORS)[number], 'actor');
    const cause = indexIn(CAUSES, r.cause as (typeof CAUSES)[number], 'cause');
    const requestHash = r.requestHash !== null && /^[0-9a-f]{64}$/.test(r.requestHash) ? r.requestHash : null;
    if (r.requestHash !== null && requestHash === null) throw new NotCompactable('a request hash that is not SHA-256 hex');
    if (r.seat !== null && (r.seat < 0 || r.seat > 6)) throw new NotCompactable(`seat ${r.seat}`);
    w.byte(kind | (actor << 4) | (r.deadline ? 0x40 : 0) | (r.idempotencyKey !== null ? 0x80 : 0));
    w.byte((r.seat === null ? 0 : r.seat + 1) | (cause << 3) | (r.idempotencyKey !== null && r.response === null ? 0x40 : 0) | (requestHash ? 0x80 : 0));
    const at = r.createdAt.getTime();
    w.zigzag(at - last);
    last = at;
    if (r.deadline) w.zigzag(r.deadline.getTime() - at);
    if (r.kind === 'play') {
      const m = r.move as { seat?: unknown; play?: unknown } | null;
      const card = m && Object.keys(m).length === 2 && m.seat === r.seat && typeof m.play === 'string' ? parseCard(m.play) : null;
      if (card === null) throw new NotCompactable(`entry ${r.seq}: a play that is not one card of its seat`);
      w.byte(card);
    } else if (JSON_MOVE.has(r.kind)) {
      writeMove(w, r.kind, r.seat, r.move);
    } else if (r.move !== null && r.move !== undefined) {
      throw new NotCompactable(`entry ${r.seq}: a ${r.kind} with a move`);
    }
    if (r.idempotencyKey !== null) w.raw(keyHashOf(r.idempotencyKey));
    if (requestHash) w.raw(Buffer.from(requestHash.slice(0, HASH_BYTES * 2), 'hex'));
  });
  const body = w.buffer();
  const packed = brotliCompressSync(body, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_LGWIN]: 16, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  return packed.length < body.length
    ? Buffer.concat([Buffer.from([COMPACT_FORMAT, COMPRESSION.brotli]), packed])
    : Buffer.concat([Buffer.from([COMPACT_FORMAT, COMPRESSION.none]), body]);
}

/** The one value of `move` besides its `seat` (the entry's), under the kind's own key: what format 2 writes short. */
function kindValue(kind: string, seat: number | null, move: unknown): unknown {
  if (move === null || typeof move !== 'object' || Array.isArray(move)) return undefined;
  const keys = Object.keys(move);
  const m = move as Record<string, unknown>;
  return keys.length === 2 && keys.includes('seat') && keys.includes(kind) && m.seat === seat && seat !== null ? m[kind] : undefined;
}

function writeMove(w: Writer, kind: string, seat: number | null, move: unknown): void {
  if (move === null || move === undefined) return w.byte(MOVE_FORMS.none);
  const value = kindValue(kind, seat, move);
  const names: unknown[] | null = Array.isArray(value) && value.length < 0x80 ? value : null;
  const cards = names?.map((c) => (typeof c === 'string' ? parseCard(c) : null)) ?? null;
  if (names && cards && cards.every((c, i) => c !== null && cardName(c) === names[i])) {
    w.byte(MOVE_FORMS.cards);
    w.byte(cards.length);
    for (const c of cards) w.byte(c!);
  } else if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    w.byte(MOVE_FORMS.name);
    w.varint(bytes.length);
    w.raw(bytes);
  } else {
    const bytes = Buffer.from(JSON.stringify(move), 'utf8');
    w.byte(MOVE_FORMS.json);
    w.varint(bytes.length);
    w.raw(bytes);
  }
}

/** A JSON_MOVE kind's move as `writeMove` wrote it (format 2) or as format 1's JSON. */
function readMove(r: Reader, format: number, kind: string, seat: number | null): unknown {
  const form = format === 1 ? MOVE_FORMS.json : r.byte();
  switch (form) {
    case MOVE_FORMS.none:
      return null;
    case MOVE_FORMS.cards: {
      const cards: string[] = [];
      for (let n = r.byte(); n > 0; n--) cards.push(cardName(r.byte()));
      return { seat, [kind]: cards };
    }
    case MOVE_FORMS.name:
      return { seat, [kind]: r.raw(r.varint()).toString('utf8') };
    case MOVE_FORMS.json: {
      const n = r.varint();
      return n === 0 ? null : JSON.parse(r.raw(n).toString('utf8'));
    }
    default:
      throw new Error(`compact log: unknown move form ${form}`);
  }
}

function unpacked(compression: number, rest: Buffer): Buffer {
  switch (compression) {
    case COMPRESSION.brotli:
      return brotliDecompressSync(rest);
    case COMPRESSION.deflate:
      return inflateRawSync(rest);
    case COMPRESSION.none:
      return rest;
    default:
      throw new Error(`compact log: unknown compression ${compression}`);
  }
}

/**
 * One entry as `readLog` hands it to its visitor: the same object each time, its fields those of
 * the entry at hand (copy what is kept). The hashes are read only when `withHashes`.
 */
interface ReadEntry {
  kind: string;
  seat: number | null;
  /** The kind byte and the seat byte, for what the fields above do not say. */
  k: number;
  s: number;
  createdAt: number;
  deadline: number | null;
  move: unknown;
  card: number | null;
  keyHash: Buffer | null;
  requestHash: string | null;
}

/** The one reader of a stored log: calls `visit` with each entry in order (see ReadEntry). */
function readLog(stored: Uint8Array, withHashes: boolean, visit: (entry: ReadEntry) => void): void {
  const buf = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const format = buf[0];
  if (!FORMATS_READ.has(format)) throw new Error(`compact log: unknown format ${format}`);
  const r = new Reader(unpacked(buf[1], buf.subarray(2)));
  const count = r.varint();
  const e: ReadEntry = { kind: '', seat: null, k: 0, s: 0, createdAt: r.varint(), deadline: null, move: null, card: null, keyHash: null, requestHash: null };
  for (let i = 0; i < count; i++) {
    const k = (e.k = r.byte());
    const s = (e.s = r.byte());
    const kind = (e.kind = KINDS[k & 0x0f]);
    const seat = (e.seat = (s & 0x07) === 0 ? null : (s & 0x07) - 1);
    e.createdAt += r.zigzag();
    e.deadline = k & 0x40 ? e.createdAt + r.zigzag() : null;
    e.move = null;
    e.card = null;
    if (kind === 'play') {
      const card = (e.card = r.byte());
      if (card > 51) throw new Error(`compact log: not a card: ${card}`);
      e.move = PLAYS[seat ?? 7][card];
    } else if (JSON_MOVE.has(kind)) e.move = readMove(r, format, kind, seat);
    if (withHashes) {
      e.keyHash = k & 0x80 ? Buffer.from(r.raw(HASH_BYTES)) : null;
      e.requestHash = s & 0x80 ? r.raw(HASH_BYTES).toString('hex') : null;
    } else r.skip((k & 0x80 ? HASH_BYTES : 0) + (s & 0x80 ? HASH_BYTES : 0));
    visit(e);
  }
}

function decodeLog(stored: Uint8Array): CodedEntry[] {
  const out: CodedEntry[] = [];
  readLog(stored, true, (e) =>
    out.push({
      kind: e.kind,
      seat: e.seat,
      actor: ACTORS[(e.k >> 4) & 0x03],
      cause: CAUSES[(e.s >> 3) & 0x07] ?? null,
      createdAt: e.createdAt,
      deadline: e.deadline,
      move: e.move,
      keyHash: e.keyHash,
      requestHash: e.requestHash,
      responseKept: e.keyHash !== null && (e.s & 0x40) === 0,
    }),
  );
  return out;
}

// ---- rebuilding -----------------------------------------------------------------------------

/** A character beyond U+007F (where UTF-16 units and UTF-8 bytes may order differently). */
const NOT_ASCII = /[\u0080-\uffff]/;

/** Shorter first, then by bytes: between ASCII keys (every key here) the bytes' order is the strings' own. */
function jsonbKeyOrder(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  if (!NOT_ASCII.test(a) && !NOT_ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** A value with its object keys in jsonb's order (shorter first, then by bytes): as a jsonb column reads back. */
export function jsonbOrdered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrdered);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort(jsonbKeyOrder);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = jsonbOrdered(v);
  }
  return out;
}

const asJson = (value: unknown): unknown => jsonbOrdered(JSON.parse(JSON.stringify(value)));

/** One rebuilt entry: the row as game_events held it, and the state after it. */
interface Step {
  row: FullLogRow;
  coded: CodedEntry;
  state: GameState;
}

/**
 * Replays the coded entries on the game's rules and seeds: each entry's events, deal index and
 * state after (each entry's only with `keepStates`; the last one always, as `state`).
 */
function replay(game: CompactGame, coded: readonly CodedEntry[], keepStates: boolean): { steps: Step[]; state: GameState } {
  const rules = makeRules(game.preset, game.options as never);
  if (!rules.ok) throw new Error(`compact log: rules ${game.preset}: ${rules.error.rule}`);
  let state = newGame(rules.value, game.firstDealer);
  let dealt = 0;
  const steps: Step[] = [];
  coded.forEach((c, i) => {
    let events: GameEvent[];
    let index = dealIndex(state);
    if (c.kind === 'deal') {
      const seed = game.seeds[dealt++];
      if (seed === undefined) throw new Error(`compact log: no seed for deal ${dealt - 1}`);
      const next = dealFresh(state, seed);
      ({ state, events } = next);
      index = next.index;
    } else if (c.kind === 'end') {
      if (c.seat === null) throw new Error('compact log: an end without a seat');
      const ended = endGame(state, { seat: c.seat, reason: c.cause as EndReason });
      if (!ended.ok) throw new Error(`compact log: entry ${i + 1}: ${ended.error.rule}`);
      ({ state, events } = ended.value);
    } else if (c.kind === 'away' || c.kind === 'back') {
      events = [];
    } else {
      const move = moveFromJson(c.move);
      if (!move.ok) throw new Error(`compact log: entry ${i + 1}: ${move.error.rule}`);
      const applied = apply(state, move.value);
      if (!applied.ok) throw new Error(`compact log: entry ${i + 1}: ${applied.error.rule}`);
      ({ state, events } = applied.value);
    }
    steps.push({
      coded: c,
      state: keepStates ? state : (undefined as unknown as GameState),
      row: {
        seq: i + 1,
        kind: c.kind,
        dealIndex: index,
        seat: c.seat,
        playerId: c.seat === null ? null : (game.seats[c.seat] ?? null),
        actor: c.actor,
        cause: c.cause,
        events: asJson(events),
        createdAt: new Date(c.createdAt),
        deadline: c.deadline === null ? null : new Date(c.deadline),
        move: c.move === null ? null : asJson(c.move),
        idempotencyKey: null,
        requestHash: c.requestHash,
        response: null,
      },
    });
  });
  return { steps, state };
}

function replaySteps(game: CompactGame, coded: readonly CodedEntry[], keepStates: boolean): Step[] {
  return replay(game, coded, keepStates).steps;
}

/**
 * The moves of a compacted log as a record takes them (deals, ends and vacations left out), each
 * with its deal (the deals before it, less one), as `move` the JSON a log row held: without a
 * replay, for a compacted game's record (its stored one is dropped at compaction once this gives
 * the same text: buildRecord).
 */
export function recordMoves(stored: Uint8Array): { dealIndex: number; move: unknown }[] {
  const moves: { dealIndex: number; move: unknown }[] = [];
  let deal = -1;
  for (const c of decodeLog(stored)) {
    if (c.kind === 'deal') deal++;
    // The decoded move is plain JSON already (parsed, or a play's seat and card): only its keys'
    // order is jsonb's to give, without asJson's round trip through text (most of an export's time).
    else if (c.kind === 'play') {
      const { seat, play } = c.move as { seat: number | null; play: string };
      moves.push({ dealIndex: deal, move: { play, seat } }); // jsonb's order: as long, 'play' < 'seat'
    } else if (c.kind !== 'end' && c.kind !== 'away' && c.kind !== 'back') moves.push({ dealIndex: deal, move: jsonbOrdered(c.move) });
  }
  return moves;
}

/**
 * recordMoves as JSON text, by deal: each deal's moves as JSON.stringify writes the moves
 * recordMoves gives, joined by commas (the inside of a record's `moves` list). The export's path,
 * which writes a compacted game's record without building its objects (buildRecordText): a play,
 * most of the entries, is written from its card.
 */
export function recordMoveTexts(stored: Uint8Array): string[] {
  const deals: string[] = [];
  let moves: string[] | null = null;
  readLog(stored, false, (e) => {
    if (e.kind === 'deal') {
      if (moves) deals.push(moves.join(','));
      moves = [];
    } else if (!moves) {
      // recordMoves' deal -1 (a move before the first deal): no record deal holds it.
    } else if (e.kind === 'play') moves.push(PLAY_TEXTS[e.seat ?? 7][e.card!]);
    else if (e.kind !== 'end' && e.kind !== 'away' && e.kind !== 'back') moves.push(moveText(e.kind, e.seat, e.move));
  });
  if (moves) deals.push((moves as string[]).join(','));
  return deals;
}

/** Whether a move's own key comes before 'seat' in jsonb's order, by kind. */
const KIND_BEFORE_SEAT = new Map<string, boolean>(KINDS.map((kind) => [kind, jsonbKeyOrder(kind, 'seat') < 0]));

/** JSON.stringify(jsonbOrdered(move)), written directly for the shape format 2 writes short ({ seat, <kind>: value }). */
function moveText(kind: string, seat: number | null, move: unknown): string {
  const value = kindValue(kind, seat, move);
  const flat = typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
  if (!flat) return JSON.stringify(jsonbOrdered(move));
  const own = `"${kind}":${JSON.stringify(value)}`;
  return KIND_BEFORE_SEAT.get(kind) ? `{${own},"seat":${seat}}` : `{"seat":${seat},${own}}`;
}

/** The log's rows rebuilt from its compact form (without keys and answers: see earlierRequest). */
export function rebuildLog(game: CompactGame, stored: Uint8Array): LogRow[] {
  return rebuildGame(game, stored).rows;
}

/**
 * The log's rows and the game's state after its last entry (encodeState's text: the games row's
 * `state` as a compacted game no longer stores it), rebuilt from its compact form.
 */
export function rebuildGame(game: CompactGame, stored: Uint8Array): { rows: LogRow[]; state: string } {
  const { steps, state } = replay(game, decodeLog(stored), false);
  return { rows: steps.map(({ row }) => logRowOf(row)), state: encodeState(state) };
}

/**
 * Whether the state rebuilt from the compact log is the stored one (as a reader decodes it): null
 * if so, else what differs. The compaction job drops the stored state only on null.
 */
export function stateDifference(game: CompactGame, stored: Uint8Array, state: unknown): string | null {
  return stateDiff(rebuildGame(game, stored).state, state);
}

/** The state rebuilt (encodeState's text) against the stored one (as read): null when alike, key order aside. */
function stateDiff(rebuiltText: string, state: unknown): string | null {
  const rebuilt = canonical(JSON.parse(rebuiltText));
  const was = canonical(JSON.parse(encodeState(decodeState(state))));
  if (rebuilt === was) return null;
  let at = 0;
  while (at < was.length && was[at] === rebuilt[at]) at++;
  return `the state rebuilt differs from the stored one at character ${at}: …${was.slice(Math.max(0, at - 40), at + 80)} ≠ …${rebuilt.slice(Math.max(0, at - 40), at + 80)}`;
}

/** JSON text with every object's keys sorted. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

function logRowOf(row: FullLogRow): LogRow {
  return {
    seq: row.seq,
    kind: row.kind,
    dealIndex: row.dealIndex,
    seat: row.seat,
    actor: row.actor,
    cause: row.cause,
    events: row.events,
    createdAt: row.createdAt,
    deadline: row.deadline,
    move: row.move,
  };
}

/**
 * The answer a move with an idempotency key got (MovesService's MoveResult as its JSON): its
 * version, status and events as its actor saw them, the seat view after it, the deadline it set.
 */
function answerOf(gameId: string, steps: readonly Step[], at: number): unknown {
  const first = steps[at];
  const entries = steps[at + 1]?.row.kind === 'deal' ? [first, steps[at + 1]] : [first];
  const last = entries[entries.length - 1];
  const viewer = first.row.actor === 'system' ? null : first.row.seat;
  return asJson({
    gameId,
    version: last.row.seq,
    status: phase(last.state) === 'over' ? 'finished' : 'active',
    events: entries.flatMap((e) => eventViews(e.row.seq, e.row.events, viewer)),
    deadline: last.row.deadline,
    game: view(last.state, viewer),
  });
}

/**
 * `playerId`'s earlier request under idempotency key `key` in a compacted log: its seq, its
 * request hash (the first 16 hex digits: compare by prefix) and the answer it got (null when none
 * was kept: entries from before answers were).
 */
export function earlierRequest(
  gameId: string,
  game: CompactGame,
  stored: Uint8Array,
  playerId: string,
  key: string,
): { seq: number; requestHash: string | null; response: unknown } | null {
  const coded = decodeLog(stored);
  const hash = keyHashOf(key);
  const at = coded.findIndex((c) => c.keyHash !== null && c.keyHash.equals(hash) && c.seat !== null && game.seats[c.seat] === playerId);
  if (at < 0) return null;
  const steps = replaySteps(game, coded.slice(0, at + 2), true);
  return { seq: at + 1, requestHash: coded[at].requestHash, response: coded[at].responseKept ? answerOf(gameId, steps, at) : null };
}

/**
 * Rebuilds `rows` from their encoding and compares every field a reader gets (and every kept
 * answer, and with `state` the games row's stored state against the one after the last entry):
 * the description of the first difference, or null when the encoding loses nothing.
 */
export function differences(gameId: string, game: CompactGame, rows: readonly FullLogRow[], stored: Uint8Array, state?: unknown): string | null {
  const coded = decodeLog(stored);
  const { steps, state: last } = replay(game, coded, true);
  if (steps.length !== rows.length) return `${steps.length} entries rebuilt, ${rows.length} stored`;
  for (let i = 0; i < rows.length; i++) {
    const was = rows[i];
    const now = steps[i].row;
    const same = (a: unknown, b: unknown) => JSON.stringify(asJson(a)) === JSON.stringify(asJson(b));
    const checks: [string, unknown, unknown][] = [
      ['seq', was.seq, now.seq],
      ['kind', was.kind, now.kind],
      ['dealIndex', was.dealIndex, now.dealIndex],
      ['seat', was.seat, now.seat],
      ['playerId', was.playerId, now.playerId],
      ['actor', was.actor, now.actor],
      ['cause', was.cause, now.cause],
      ['createdAt', was.createdAt.getTime(), now.createdAt.getTime()],
      ['deadline', was.deadline?.getTime() ?? null, now.deadline?.getTime() ?? null],
      ['move', was.move ?? null, now.move],
      ['events', was.events, now.events],
      ['requestHash', was.requestHash?.slice(0, HASH_BYTES * 2) ?? null, now.requestHash],
    ];
    for (const [field, a, b] of checks) {
      if (!same(a, b)) return `entry ${was.seq}: ${field} ${JSON.stringify(a)?.slice(0, 200)} ≠ ${JSON.stringify(b)?.slice(0, 200)}`;
    }
    if (was.idempotencyKey !== null) {
      if (!coded[i].keyHash?.equals(keyHashOf(was.idempotencyKey))) return `entry ${was.seq}: key`;
      if (was.response !== null && !same(was.response, answerOf(gameId, steps, i))) {
        return `entry ${was.seq}: answer ${JSON.stringify(asJson(was.response)).slice(0, 300)} ≠ ${JSON.stringify(answerOf(gameId, steps, i)).slice(0, 300)}`;
      }
    }
  }
  return state === undefined ? null : stateDiff(encodeState(last), state);
}
