// The CPU part of an import, pure and off the request path: a record replayed once (in place,
// reporting each step's events) into the game's archive commit, projected into its rows (the one
// projection of every game write, games/game-commit.ts), each row set as one JSON text that
// PostgreSQL expands. Runs in a worker thread (import-worker.ts): what crosses back is a few
// strings, cheap to hand over.
import { randomUUID } from 'node:crypto';
import { dealerOf, formatRecordError, makeRules, parseRecord, replay, type RecordError } from '@mizerka/rules';
import { buildRecord, packed, projectCommit, seedHashOf, type ArchivedEntry, type GameProjection } from '../games/pure.js';

/** The longest name an imported record may give a seat. */
export const SEAT_NAME_MAX = 64;

export interface ImportTask {
  record: unknown;
  /** The seat asked for; null: the seat the record names the importer at. */
  seat: number | null;
  importerId: string;
  importerName: string;
  /** The SHA-256 of the record as sent: the same record imported again by the same player writes nothing. */
  importHash: string;
  maxDeals: number;
}

/** A refusal, as plain data (it crosses a thread): the service makes it a BAD_INPUT. */
export interface ImportRefusal {
  message: string;
  details: Record<string, unknown>;
}

export interface ImportPlan {
  /** The importer's seat. */
  seat: number;
  /** The game's rows, its row sets as JSON text. */
  projection: GameProjection;
}

export type ImportPlanResult = { ok: true; plan: ImportPlan } | { ok: false; refusal: ImportRefusal };

function refused(message: string, details: Record<string, unknown>): ImportPlanResult {
  return { ok: false, refusal: { message, details } };
}

function recordRefused(error: RecordError): ImportPlanResult {
  return refused(`record: ${formatRecordError(error)}`, {
    field: 'record',
    rule: error.rule,
    dealIndex: error.dealIndex,
    moveIndex: error.moveIndex,
  });
}

/** Checks and replays a record once; the rows of the game it makes, or why it is refused. */
export function planImport(task: ImportTask): ImportPlanResult {
  const parsed = parseRecord(task.record);
  if (!parsed.ok) return recordRefused(parsed.error);
  const record = parsed.value;
  // Before the replay: a record's cost is bounded by its deals as well as by its bytes.
  if (record.deals.length > task.maxDeals) {
    return refused(`record: at most ${task.maxDeals} deals may be imported; this record has ${record.deals.length}`, {
      field: 'record.deals',
      limit: 'deals',
      max: task.maxDeals,
    });
  }
  const rules = makeRules(record.rules.preset, record.rules.options);
  if (!rules.ok) return refused(rules.error.message, { field: 'record' });
  const n = rules.value.players;
  const given = record.players ?? Array.from({ length: n }, (_, seat) => `seat ${seat}`);
  if (given.some((name) => name.length === 0 || name.length > SEAT_NAME_MAX)) {
    return refused(`record: each of players must be 1 to ${SEAT_NAME_MAX} characters long`, { field: 'record.players' });
  }
  const seat = task.seat ?? given.findIndex((name) => name.toLowerCase() === task.importerName.toLowerCase());
  if (seat < 0 || seat >= n || !Number.isInteger(seat)) {
    return refused(
      task.seat == null ? `seat: the record names no seat ${task.importerName}; say which seat was yours` : `seat must be a seat of the game, 0 to ${n - 1}`,
      { field: 'seat' },
    );
  }

  // The one replay: the log comes from its steps, the rows from the log.
  const seats = Array.from({ length: n }, (_, i) => (i === seat ? task.importerId : null));
  const entries: ArchivedEntry[] = [];
  const replayed = replay(record, (step) => {
    const kind = step.kind === 'move' ? Object.keys(step.move!).find((k) => k !== 'seat')! : step.kind;
    const seatOf = step.kind === 'move' ? step.move!.seat : step.kind === 'end' ? record.end!.seat : null;
    entries.push({
      seq: entries.length + 1,
      kind,
      dealIndex: step.dealIndex,
      seat: seatOf,
      playerId: seatOf === null ? null : seats[seatOf],
      actor: step.kind === 'deal' ? 'system' : 'player',
      cause: step.kind === 'end' ? record.end!.reason : null,
      move: step.move ?? null,
      events: step.events,
      idempotencyKey: null,
      requestHash: null,
      response: null,
      createdAt: null,
      deadline: null,
    });
  });
  if (!replayed.ok) return recordRefused(replayed.error);
  const end = replayed.value.outcome;
  if (!end.finished) {
    return refused('record: only a finished game can be imported; this record stops before the end', { field: 'record' });
  }

  const names = given.map((name, i) => (i === seat ? task.importerName : name));
  const bots = record.bots ?? [];
  const recordText = JSON.stringify(
    buildRecord({
      preset: rules.value.preset,
      options: rules.value.options,
      firstDealer: record.firstDealer,
      endSeat: end.end?.seat ?? null,
      endReason: end.end?.reason ?? null,
      players: names,
      bots: bots.length === n ? bots : Array.from({ length: n }, () => null),
      deals: record.deals.map((d) => ({ seed: null, deck: d.deck })),
      moves: record.deals.flatMap((d, dealIndex) => d.moves.map((move) => ({ dealIndex, move }))),
    }),
  );
  const createdAt = new Date(); // the game's and its seat's, the same value
  const projection = projectCommit({
    type: 'archive',
    gameId: randomUUID(),
    lobbyId: null,
    preset: rules.value.preset,
    options: rules.value.options as Record<string, unknown>,
    firstDealer: record.firstDealer,
    seats,
    state: replayed.value.state,
    entries,
    deals: record.deals.map((d, index) => ({
      dealer: dealerOf(rules.value, record.firstDealer, index),
      seed: null,
      deck: d.deck,
      // Not a commitment (nothing was committed here): the hash of the deck as uploaded.
      seedHash: seedHashOf(d.deck.join(' ')),
      startedAt: null,
    })),
    totals: end.totals,
    winners: end.winners,
    end: end.end ?? null,
    rated: false,
    ratedAt: null,
    timeControl: null,
    clock: null,
    imported: { by: task.importerId, seatNames: given, seatBots: bots.map((b) => b ?? ''), hash: task.importHash },
    record: recordText,
    createdAt,
    finishedAt: createdAt,
  });
  return { ok: true, plan: { seat, projection: packed(projection) } };
}
