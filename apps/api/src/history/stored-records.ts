import { Injectable } from '@nestjs/common';
import type { GameRecord } from '@mizerka/rules';
import { toJsonColumn } from '../common/json-column.js';
import { queryRows } from '../common/sql-query.js';
import type { Prisma } from '../generated/prisma/client.js';
import { botMarksOf, buildRecord, buildRecordText, recordMoves, recordMoveTexts, seatNamesOf, type RecordSource } from '../games/index.js';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { insertRecordsSql, recordSourcesSql, type RecordSourceRow } from './history.sql.js';

/** What runs the SQL: the Prisma client or a transaction of it. */
type Db = Pick<Prisma.TransactionClient, '$queryRaw' | '$executeRaw'>;

/** A game's record from its stored rows: the one record builder, the games module's. */
export function recordOfRow(row: RecordSourceRow): GameRecord & { players: string[] } {
  return buildRecord({ ...sourceOf(row), moves: row.compact ? recordMoves(row.compact) : row.moves });
}

/**
 * The text of recordOfRow's record (JSON.stringify of it): for a compacted game written from its
 * compact log without building the record's objects (buildRecordText), the export's way.
 */
export function recordTextOfRow(row: RecordSourceRow): string {
  return row.compact ? buildRecordText(sourceOf(row), recordMoveTexts(row.compact)) : JSON.stringify(recordOfRow(row));
}

function sourceOf(row: RecordSourceRow): Omit<RecordSource, 'moves'> {
  return {
    preset: row.preset,
    options: row.options,
    firstDealer: row.first_dealer,
    endSeat: row.end_seat,
    endReason: row.end_reason,
    players: seatNamesOf(row.seats.map((s) => ({ seat: s.seat, player: { name: s.name } })), row.seat_names, row.players),
    bots: botMarksOf(row.seats.map((s) => ({ seat: s.seat, player: s })), row.players, row.seat_bots),
    deals: row.deals,
  };
}

/**
 * Builds and stores the records of those of `gameIds` that are finished and have none yet; the
 * number stored. Idempotent: a game whose record is there (a repeat, a retry after a crash, another
 * instance) is skipped by the read or, in a race, by the insert's ON CONFLICT DO NOTHING.
 */
export async function storeRecords(db: Db, gameIds: readonly string[]): Promise<number> {
  if (gameIds.length === 0) return 0;
  const rows = await queryRows(db, recordSourcesSql([...new Set(gameIds)]));
  if (rows.length === 0) return 0;
  return db.$executeRaw(insertRecordsSql(rows.map((row) => ({ gameId: row.id, text: toJsonColumn(recordOfRow(row)) }))));
}

/**
 * Stores each finished game's record once, at its end, so that the export reads one row per game:
 * the consumer of `gameFinished` (delivered at least once, on any instance; storeRecords makes a
 * second delivery a no-op). A failure throws, and the queue retries this consumer's job alone.
 */
@Injectable()
export class StoredRecords {
  constructor(private readonly prisma: PrismaService) {}

  @OutboxConsumer('gameFinished', 'records')
  async gamesFinished(items: OutboxItem<'gameFinished'>[]): Promise<void> {
    await this.store(items.map((i) => i.gameId));
  }

  async store(gameIds: readonly string[]): Promise<number> {
    return storeRecords(this.prisma, gameIds);
  }
}
