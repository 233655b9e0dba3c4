// The CPU part of an import, pure and off the request path: a record replayed once (in place,
// reporting each step's events) into the rows an archived game is written as, each table's rows as
// one JSON text that PostgreSQL expands (json_to_recordset). Runs in a worker thread
// (import-worker.ts): what crosses back is a few strings, cheap to hand over.
import {
  cardName,
  dealerOf,
  formatRecordError,
  makeRules,
  parseRecord,
  phase,
  replay,
  encodeState,
  type RecordError,
} from '@mizerka/rules';
import { buildRecord, dealFactsOf, seedHashOf } from '../games/pure.js';

/** The longest name an imported record may give a seat. */
export const SEAT_NAME_MAX = 64;

export interface ImportTask {
  record: unknown;
  /** The seat asked for; null: the seat the record names the importer at. */
  seat: number | null;
  importerName: string;
  maxDeals: number;
}

/** A refusal, as plain data (it crosses a thread): the service makes it a BAD_INPUT. */
export interface ImportRefusal {
  message: string;
  details: Record<string, unknown>;
}

export interface ImportPlan {
  preset: string;
  options: Record<string, unknown>;
  players: number;
  firstDealer: number;
  seat: number;
  /** Names by seat as the record gives them (the importer's seat has the importer's account). */
  names: string[];
  /** The record's `bots` ('' for a person, as games.seat_bots keeps them), or empty when it names none. */
  bots: string[];
  version: number;
  phase: string;
  dealIndex: number;
  state: string;
  totals: number[];
  winners: number[];
  endSeat: number | null;
  endReason: string | null;
  /** JSON arrays of the deals', tricks' and log entries' rows, in their tables' column names. */
  deals: string;
  tricks: string;
  entries: string;
  /** Rows written in all: what the write's transaction is sized by. */
  rows: number;
  /** The record as the game gives it from now on (the export's line). */
  recordText: string;
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

interface DealRow {
  index: number;
  dealer: number;
  deck: string[];
  seed_hash: string;
  contract: string | null;
  declarer: number | null;
  bid: string | null;
  trump: string | null;
  tricks: (number | null)[] | null;
  scores: number[] | null;
  finished: boolean;
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

  // The one replay: the rows come from its steps.
  const deals: DealRow[] = record.deals.map((d, index) => ({
    index,
    dealer: dealerOf(rules.value, record.firstDealer, index),
    deck: d.deck,
    // Not a commitment (nothing was committed here): the hash of the deck as uploaded.
    seed_hash: seedHashOf(d.deck.join(' ')),
    contract: null,
    declarer: null,
    bid: null,
    trump: null,
    tricks: null,
    scores: null,
    finished: false,
  }));
  const tricks: { deal_index: number; index: number; leader: number; cards: string[]; winner: number }[] = [];
  const entries: string[] = [];
  const replayed = replay(record, (step) => {
    const kind = step.kind === 'move' ? Object.keys(step.move!).find((k) => k !== 'seat')! : step.kind;
    const seatOf = step.kind === 'move' ? step.move!.seat : step.kind === 'end' ? record.end!.seat : null;
    entries.push(
      JSON.stringify({
        seq: entries.length + 1,
        kind,
        deal_index: step.dealIndex,
        seat: seatOf,
        cause: step.kind === 'end' ? record.end!.reason : null,
        move: step.move,
        events: step.events,
      }),
    );
    // The same rule as a game played here: a deal's facts as its steps make them known.
    const facts = dealFactsOf(step.events);
    if (facts) {
      const row = deals[step.dealIndex];
      if (facts.contract !== undefined) row.contract = facts.contract;
      if (facts.declarer !== undefined) [row.declarer, row.bid] = [facts.declarer, facts.bid ?? null];
      if (facts.trump !== undefined) row.trump = facts.trump;
      if (facts.scored) [row.tricks, row.scores, row.finished] = [facts.scored.tricks, facts.scored.scores, true];
    }
    for (const e of step.events) {
      if (e.type === 'trickTaken') {
        tricks.push({ deal_index: step.dealIndex, index: e.trick, leader: e.leader, cards: e.cards.map(cardName), winner: e.winner });
      }
    }
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
  return {
    ok: true,
    plan: {
      preset: rules.value.preset,
      options: rules.value.options as Record<string, unknown>,
      players: n,
      firstDealer: record.firstDealer,
      seat,
      names: given,
      bots: bots.map((b) => b ?? ''),
      version: entries.length,
      phase: phase(replayed.value.state),
      dealIndex: Math.max(0, record.deals.length - 1),
      state: encodeState(replayed.value.state),
      totals: end.totals,
      winners: end.winners,
      endSeat: end.end?.seat ?? null,
      endReason: end.end?.reason ?? null,
      deals: JSON.stringify(deals),
      tricks: JSON.stringify(tricks),
      entries: `[${entries.join(',')}]`,
      rows: deals.length + tricks.length + entries.length,
      recordText,
    },
  };
}
