import { z } from 'zod';
import { sqlQuery } from '../common/sql-query.js';
import { arrayField, field, jsonField, row, timeField } from '../database/copy-text.js';
import { Prisma } from '../generated/prisma/client.js';
import { insertOutboxSql } from '../outbox/outbox-entries.js';
import { insertFeedSql } from '../player-events/feed.sql.js';
import type { GameProjection, GameRow, GameUpdate, RowSet } from './game-commit.js';
import { toJsonColumn } from '../common/json-column.js';

/**
 * The one writer of a game's rows: a projection (game-commit.ts) as one statement, a chain of
 * data-modifying CTEs hanging off the games row's write (`g`). PostgreSQL runs a statement
 * atomically, so the log entries, the trick, the deal's result, the next deal, the standings, the
 * outbox job and the feed events are written together or not at all; and every other part selects
 * from `g`, so when the games row is not written (a move whose version was taken by another write
 * first, an import of a record already imported) nothing is. The same as BEGIN; UPDATE … WHERE
 * version; INSERT …; COMMIT in one round trip instead of four or more. Each row set goes as one
 * JSON parameter, so a statement's text depends on which parts it has, not on how many rows:
 * prepared once per shape on the move path.
 *
 * Its one row: `applied` (1 when written) and `tx`, the id of the writing transaction, which feed
 * readers wait for.
 */
export function gameCommitSql(p: GameProjection) {
  const ctes: Prisma.Sql[] = [Prisma.sql`g AS (${p.gameUpdate ? updateGameSql(p.gameId, p.gameUpdate) : insertGameSql(p.gameInsert!)})`];

  if (p.seats.length > 0) {
    ctes.push(Prisma.sql`s AS (
      INSERT INTO game_seats (game_id, seat, player_id, total, place, created_at)
      SELECT g.id, r.seat, r."playerId", r.total, r.place, r."createdAt"
        FROM g, jsonb_to_recordset(${toJsonColumn(p.seats)}::jsonb)
             AS r(seat smallint, "playerId" uuid, total int, place smallint, "createdAt" timestamptz))`);
  }
  if (p.standings.length > 0) {
    ctes.push(Prisma.sql`st AS (
      UPDATE game_seats SET total = r.total, place = r.place
        FROM g, jsonb_to_recordset(${toJsonColumn(p.standings)}::jsonb) AS r(seat smallint, total int, place smallint)
       WHERE game_seats.game_id = g.id AND game_seats.seat = r.seat)`);
  }
  if (hasRows(p.deals)) {
    ctes.push(Prisma.sql`n AS (
      INSERT INTO deals (game_id, index, dealer, seed, deck, seed_hash, contract, declarer, bid, trump, tricks, scores, started_at, finished_at)
      SELECT g.id, r.index, r.dealer, decode(r.seed, 'hex'), r.deck, decode(r."seedHash", 'hex'), r.contract, r.declarer, r.bid, r.trump, r.tricks, r.scores,
             coalesce(r."startedAt", now()), r."finishedAt"
        FROM g, json_to_recordset(${json(p.deals)}::json)
             AS r(index int, dealer smallint, seed text, deck text[], "seedHash" text, contract varchar, declarer smallint,
                  bid varchar, trump varchar, tricks json, scores json, "startedAt" timestamptz, "finishedAt" timestamptz))`);
  }
  if (p.dealUpdate) {
    const c = p.dealUpdate.columns;
    const set: Prisma.Sql[] = [];
    if (c.contract !== undefined) set.push(Prisma.sql`contract = ${c.contract}::varchar`);
    if (c.declarer !== undefined) set.push(Prisma.sql`declarer = ${c.declarer}::smallint`);
    if (c.bid !== undefined) set.push(Prisma.sql`bid = ${c.bid}::varchar`);
    if (c.trump !== undefined) set.push(Prisma.sql`trump = ${c.trump}::varchar`);
    if (c.tricks !== undefined) set.push(Prisma.sql`tricks = ${toJsonColumn(c.tricks)}::json`);
    if (c.scores !== undefined) set.push(Prisma.sql`scores = ${toJsonColumn(c.scores)}::json`);
    if (c.finished) set.push(Prisma.sql`finished_at = now()`);
    ctes.push(Prisma.sql`d AS (
      UPDATE deals SET ${Prisma.join(set, ', ')}
        FROM g WHERE deals.game_id = g.id AND deals.index = ${p.dealUpdate.index}::int)`);
  }
  if (hasRows(p.tricks)) {
    ctes.push(Prisma.sql`t AS (
      INSERT INTO live_tricks (game_id, deal_index, index, leader, cards, winner)
      SELECT g.id, r."dealIndex", r.index, r.leader, r.cards, r.winner
        FROM g, jsonb_to_recordset(${json(p.tricks)}::jsonb) AS r("dealIndex" int, index smallint, leader smallint, cards text[], winner smallint))`);
  }
  ctes.push(Prisma.sql`e AS (
    INSERT INTO game_events (game_id, seq, kind, deal_index, seat, player_id, actor, cause, move, events, idempotency_key,
                             request_hash, response, deadline, created_at)
    SELECT g.id, r.seq, r.kind, r."dealIndex", r.seat, r."playerId", r.actor, r.cause, r.move, r.events, r."idempotencyKey",
           r."requestHash", r.response, r.deadline, coalesce(r."createdAt", now())
      FROM g, jsonb_to_recordset(${json(p.entries)}::jsonb)
           AS r(seq int, kind varchar, "dealIndex" int, seat smallint, "playerId" uuid, actor varchar, cause varchar, move jsonb,
                events jsonb, "idempotencyKey" varchar, "requestHash" char(64), response jsonb, deadline timestamptz, "createdAt" timestamptz))`);
  if (p.record !== null) {
    ctes.push(Prisma.sql`r AS (INSERT INTO game_records (game_id, record) SELECT g.id, ${p.record}::json FROM g)`);
  }
  if (p.outbox) ctes.push(Prisma.sql`o AS (${insertOutboxSql(p.outbox, Prisma.sql`g`)})`);
  if (p.feed.length > 0) ctes.push(Prisma.sql`f AS (${insertFeedSql(p.feed, Prisma.sql`g`)})`);
  return sqlQuery(
    z.object({ applied: z.number(), tx: z.string() }),
    Prisma.sql`WITH ${Prisma.join(ctes, ', ')} SELECT count(*)::int AS applied, pg_current_xact_id()::text AS tx FROM g`,
  );
}

/** The games row of a move, under the version guard. */
function updateGameSql(gameId: string, u: GameUpdate): Prisma.Sql {
  const sets: Prisma.Sql[] = [
    Prisma.sql`state = ${u.state}::json`,
    Prisma.sql`version = ${u.version}::int`,
    Prisma.sql`phase = ${u.phase}::varchar`,
    Prisma.sql`to_move = ${u.toMove}::smallint`,
    Prisma.sql`deal_index = ${u.dealIndex}::int`,
    Prisma.sql`turn_deadline = ${u.turnDeadline}::timestamptz`,
    Prisma.sql`updated_at = now()`,
  ];
  if (u.clock) {
    sets.push(
      Prisma.sql`turn_started_at = ${u.clock.turnStartedAt}::timestamptz`,
      Prisma.sql`bank_ms = ${intArray(u.clock.bankMs)}`,
      Prisma.sql`timeouts = ${intArray(u.clock.timeouts)}`,
      Prisma.sql`turn_paused_at = ${u.clock.paused?.at ?? null}::timestamptz`,
      Prisma.sql`turn_paused_deadline = ${u.clock.paused?.deadline ?? null}::timestamptz`,
    );
  }
  if (u.totals) sets.push(Prisma.sql`totals = ${intArray(u.totals)}`);
  if (u.winners) sets.push(Prisma.sql`status = 'finished'::"GameStatus"`, Prisma.sql`finished_at = now()`, Prisma.sql`winners = ${intArray(u.winners)}`);
  if (u.end) sets.push(Prisma.sql`end_seat = ${u.end.seat}::smallint`, Prisma.sql`end_reason = ${u.end.reason}::varchar`);
  return Prisma.sql`UPDATE games SET ${Prisma.join(sets, ', ')}
     WHERE id = ${gameId}::uuid AND version = ${u.readVersion}::int
    RETURNING id`;
}

/** A games row written whole; an import's only once per record and importer. */
function insertGameSql(r: GameRow): Prisma.Sql {
  return Prisma.sql`INSERT INTO games (id, lobby_id, preset, options, players, first_dealer, status, version, phase, deal_index, to_move, state,
                       totals, winners, time_control, turn_deadline, turn_started_at, bank_ms, timeouts, end_seat, end_reason, rated, rated_at,
                       imported_by, seat_names, seat_bots, import_hash, board_id, board_seed, reveal_held, created_at, updated_at, finished_at)
    VALUES (${r.id}::uuid, ${r.lobbyId}::uuid, ${r.preset}::varchar, ${toJsonColumn(r.options)}::jsonb, ${r.players}::smallint,
            ${r.firstDealer}::smallint, ${r.status}::"GameStatus", ${r.version}::int, ${r.phase}::varchar, ${r.dealIndex}::int,
            ${r.toMove}::smallint, ${r.state}::json, ${intArray(r.totals)}, ${intArray(r.winners)},
            ${r.timeControl === null ? null : toJsonColumn(r.timeControl)}::jsonb, ${r.turnDeadline}::timestamptz,
            ${r.turnStartedAt}::timestamptz, ${intArray(r.bankMs)}, ${intArray(r.timeouts)}, ${r.endSeat}::smallint,
            ${r.endReason}::varchar, ${r.rated}::boolean, ${r.ratedAt}::timestamptz, ${r.importedBy}::uuid,
            ${textArray(r.seatNames)}::varchar[], ${textArray(r.seatBots)}::varchar[], ${r.importHash}::char(64),
            ${r.boardId}::uuid, ${r.boardSeed}::char(32), ${r.revealHeld}::boolean, ${r.createdAt}::timestamptz, ${r.finishedAt ?? r.createdAt}::timestamptz, ${r.finishedAt}::timestamptz)
    ${r.importHash === null ? Prisma.empty : Prisma.sql`ON CONFLICT (imported_by, import_hash) DO NOTHING`}
    RETURNING id`;
}

function hasRows<T>(rows: RowSet<T>): boolean {
  return typeof rows === 'string' ? rows !== '[]' : rows.length > 0;
}

function json<T>(rows: RowSet<T>): string {
  return typeof rows === 'string' ? rows : toJsonColumn(rows);
}

function intArray(values: readonly number[]): Prisma.Sql {
  return values.length === 0 ? Prisma.sql`'{}'::int[]` : Prisma.sql`ARRAY[${Prisma.join(values.map((v) => Prisma.sql`${v}::int`))}]`;
}

function textArray(values: readonly string[]): Prisma.Sql {
  return values.length === 0 ? Prisma.sql`'{}'::text[]` : Prisma.sql`ARRAY[${Prisma.join(values.map((v) => Prisma.sql`${v}::text`))}]`;
}

/** The tables a projection written whole is loaded into by COPY, with their columns in the order `gameCommitCopy` writes them. */
export const GAME_COPY_COLUMNS = {
  games:
    'games (id, lobby_id, preset, options, players, first_dealer, status, version, phase, deal_index, to_move, state, totals, winners, time_control, ' +
    'turn_deadline, turn_started_at, bank_ms, timeouts, end_seat, end_reason, rated, rated_at, imported_by, seat_names, seat_bots, import_hash, ' +
    'created_at, updated_at, finished_at)',
  gameSeats: 'game_seats (game_id, seat, player_id, total, place, created_at)',
  deals: 'deals (game_id, index, dealer, seed, deck, seed_hash, contract, declarer, bid, trump, tricks, scores, started_at, finished_at)',
  gameEvents:
    'game_events (game_id, seq, kind, deal_index, seat, player_id, actor, cause, move, events, idempotency_key, request_hash, response, deadline, created_at)',
  tricks: 'live_tricks (game_id, deal_index, index, leader, cards, winner)',
  gameRecords: 'game_records (game_id, record, created_at)',
} as const;

export type GameCopyRows = { [T in keyof typeof GAME_COPY_COLUMNS]: string[] };

/**
 * A game written whole (an archive commit with its own times, as the seeding script makes them)
 * as COPY text lines, appended per table to `out`: the same rows `gameCommitSql` writes, for a
 * bulk load of many games. It has no guard and no outbox or feed: it is for an empty database.
 */
export function gameCommitCopy(p: GameProjection, out: GameCopyRows): void {
  const g = p.gameInsert;
  if (!g || p.gameUpdate || p.outbox || p.feed.length > 0 || typeof p.deals === 'string' || typeof p.tricks === 'string' || typeof p.entries === 'string') {
    throw new Error('gameCommitCopy writes a game written whole, with its rows as values');
  }
  const time = (at: Date | null) => timeField(at?.getTime() ?? null);
  const written = g.finishedAt ?? g.createdAt;
  out.games.push(
    row([
      g.id, field(g.lobbyId), g.preset, jsonField(g.options), String(g.players), String(g.firstDealer), g.status, String(g.version), g.phase,
      String(g.dealIndex), field(g.toMove), field(g.state), arrayField(g.totals), arrayField(g.winners), jsonField(g.timeControl),
      time(g.turnDeadline), time(g.turnStartedAt), arrayField(g.bankMs), arrayField(g.timeouts), field(g.endSeat), field(g.endReason),
      String(g.rated), time(g.ratedAt), field(g.importedBy), textArrayField(g.seatNames), textArrayField(g.seatBots), field(g.importHash),
      time(g.createdAt), time(written), time(g.finishedAt),
    ]),
  );
  for (const s of p.seats) out.gameSeats.push(row([g.id, String(s.seat), s.playerId, field(s.total), field(s.place), time(s.createdAt)]));
  for (const d of p.deals) {
    out.deals.push(
      row([
        g.id, String(d.index), String(d.dealer), byteaField(d.seed), d.deck === null ? '\\N' : arrayField(d.deck), byteaField(d.seedHash), field(d.contract), field(d.declarer),
        field(d.bid), field(d.trump), jsonField(d.tricks), jsonField(d.scores), time(d.startedAt ?? written), time(d.finishedAt),
      ]),
    );
  }
  for (const e of p.entries) {
    out.gameEvents.push(
      row([
        g.id, String(e.seq), e.kind, String(e.dealIndex), field(e.seat), field(e.playerId), e.actor, field(e.cause), jsonField(e.move),
        jsonField(e.events), field(e.idempotencyKey), field(e.requestHash), jsonField(e.response), time(e.deadline), time(e.createdAt ?? written),
      ]),
    );
  }
  for (const t of p.tricks) out.tricks.push(row([g.id, String(t.dealIndex), String(t.index), String(t.leader), arrayField(t.cards), String(t.winner)]));
  if (p.record !== null) out.gameRecords.push(row([g.id, field(p.record), time(written)]));
}

/** bytea from hex (a seed, a seed hash), or null: bytea's hex input form, its backslash escaped for COPY. */
function byteaField(hex: string | null): string {
  return hex === null ? '\\N' : `\\\\x${hex}`;
}

/** text[] of names (a seat name may hold any character): each element quoted. */
function textArrayField(values: readonly string[]): string {
  return field(`{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`);
}
