import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Writable } from 'node:stream';
import postgres from 'postgres';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { DomainError } from '../common/errors.js';
import { parseRows, type SqlQuery } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { ReplicaPrisma, replicaCheckouts } from '../prisma/replica-prisma.js';
import { exportChatSql, gamesExportSql, type ExportRow, type GamesQuery } from './history.sql.js';
import { recordTextOfRow } from './stored-records.js';

/**
 * A small Postgres.js pool of the export's own, for its pages. Its own connections, so that exports
 * never take one from the moves' pool; an export holds one only while it reads a page, never while
 * it waits for its client (ExportService), so three of them serve any number of exports. On the
 * read replica (DATABASE_REPLICA_URL, read-only sessions) when there is one, else on the primary.
 */
@Injectable()
export class ExportPool implements OnApplicationShutdown {
  private readonly sql: postgres.Sql;
  private readonly onReplica: boolean;

  constructor(replica: ReplicaPrisma) {
    this.onReplica = replica.isReplica;
    this.sql = postgres(replica.url, {
      max: 3,
      idle_timeout: 30,
      connect_timeout: 10,
      prepare: true,
      onnotice: () => undefined,
      // JIT compiling an export's plan cost more than it saved (~250 ms per 1,000 records, the
      // estimate of its subqueries far above jit_above_cost); this pool runs only the export.
      connection: {
        application_name: 'mizerka-history',
        jit: 'off',
        ...(replica.isReplica ? { default_transaction_read_only: true } : {}),
      },
    });
  }

  /** Runs `query` (a plain query: no cursor or transaction); answers its rows, checked. */
  async rows<Row>(query: SqlQuery<Row>): Promise<Row[]> {
    if (this.onReplica) replicaCheckouts.inc({ pool: 'export' });
    return parseRows(query, await this.sql.unsafe(query.text, query.values as never[]));
  }

  async onApplicationShutdown(): Promise<void> {
    // A page being read is cancelled: the shutdown must not wait for it.
    await this.sql.end({ timeout: 2 });
  }
}

/** An export admitted by ExportService.admit: close it when the stream is over (once is enough). */
export interface ExportSlot {
  close(): void;
}

/**
 * The NDJSON export of a player's finished games, for clients that may never read. A page of
 * records is read by keyset (the list's own order, newest first) and the connection goes back to
 * the pool before a line is written, so a stalled client holds memory for one page and no
 * database connection; a client that takes nothing for EXPORT_IDLE_SECONDS is cut off; and one
 * address, or one signed-in caller, holds only so many exports open at once (on this instance).
 */
@Injectable()
export class ExportService implements OnApplicationShutdown {
  private readonly limits: AppConfig['exports'];
  private readonly open = new Map<string, number>();
  private readonly streams = new Set<Writable>();

  constructor(
    private readonly pg: ExportPool,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = config.get('exports', { infer: true });
  }

  /** Admits an export from `address` by `caller`, or throws RATE_LIMITED when either holds its most. */
  admit(address: string, caller: AuthenticatedPlayer | null | undefined): ExportSlot {
    const keys = [`ip:${address}`];
    if ((this.open.get(keys[0]) ?? 0) >= this.limits.perIp) {
      throw new DomainError(
        'RATE_LIMITED',
        `At most ${this.limits.perIp} exports at once from one address (EXPORT_MAX_PER_IP); wait for one to end`,
        { limit: 'EXPORT_MAX_PER_IP' },
      );
    }
    if (caller) {
      keys.push(`player:${caller.id}`);
      if ((this.open.get(keys[1]) ?? 0) >= this.limits.perPlayer) {
        throw new DomainError(
          'RATE_LIMITED',
          `At most ${this.limits.perPlayer} exports at once per player (EXPORT_MAX_PER_PLAYER); wait for one to end`,
          { limit: 'EXPORT_MAX_PER_PLAYER' },
        );
      }
    }
    for (const key of keys) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    let closed = false;
    return {
      close: () => {
        if (closed) return;
        closed = true;
        for (const key of keys) {
          const n = (this.open.get(key) ?? 1) - 1;
          if (n > 0) this.open.set(key, n);
          else this.open.delete(key);
        }
      },
    };
  }

  /**
   * Streams the filter's finished games to `out`, newest first, at most `limit`: one mizerka-record/1
   * per line (with `withSeeds`, `{ gameId, createdAt, seeds, record }`). Ends `out` when done;
   * destroys it when the client takes nothing for the idle time; returns early when it closes.
   */
  async stream(q: GamesQuery, limit: number, out: Writable, withSeeds = false, withChat = false): Promise<void> {
    this.streams.add(out);
    // A response whose client left may not say so by `destroyed` until it is written to.
    let gone = false;
    const onClose = () => (gone = true);
    out.once('close', onClose);
    const over = () => gone || out.destroyed;
    try {
      let after = q.after;
      let left = limit;
      while (left > 0 && !over()) {
        const size = Math.min(left, this.limits.pageSize);
        const query = gamesExportSql({ ...q, after }, size, withSeeds);
        // The connection is free again before a line is written.
        const rows = await this.pg.rows(query);
        const chats = withChat ? await this.chatsOf(rows.map((r) => r.id)) : null;
        for (const row of rows) {
          if (over() || !(await send(out, lineOf(row, withSeeds, chats?.get(row.id) ?? (chats ? [] : null)), this.limits.idleMs))) return;
        }
        if (rows.length < size) break;
        left -= rows.length;
        // Rows come in the list's order, by (created_at, id): the next page starts after the last.
        const last = rows[rows.length - 1];
        after = { at: last.created_at, id: last.id };
      }
      if (!over()) out.end();
    } finally {
      out.off('close', onClose);
      this.streams.delete(out);
    }
  }

  private async chatsOf(gameIds: string[]): Promise<Map<string, ExportChatLine[]>> {
    const chats = new Map<string, ExportChatLine[]>();
    if (gameIds.length === 0) return chats;
    for (const m of await this.pg.rows(exportChatSql(gameIds))) {
      const lines = chats.get(m.game_id) ?? [];
      lines.push({ seq: m.seq, author: m.author, body: m.body, at: m.at.toISOString() });
      chats.set(m.game_id, lines);
    }
    return chats;
  }

  onApplicationShutdown(): void {
    // A stream waiting for its client would hold the shutdown until the idle time: cut it now.
    for (const out of this.streams) out.destroy();
  }
}

/** A message of a game's players' room, as an export with `includeChat` carries it. */
export interface ExportChatLine {
  seq: number;
  author: string;
  body: string;
  at: string;
}

function lineOf(row: ExportRow, withSeeds: boolean, chat: ExportChatLine[] | null): string {
  // The stored text is JSON.stringify of the record buildRecord gave: sent as it is, it is the same
  // line as one built now.
  const record = row.record ?? recordTextOfRow({ ...row, seats: row.seats!, deals: row.deals!, moves: row.moves!, compact: row.compact });
  if (!withSeeds && !chat) return `${record}\n`;
  const seeds = withSeeds ? row.deals!.map((d) => ({ seed: d.seed, seedHash: d.seedHash })) : undefined;
  return `${JSON.stringify({ gameId: row.id, createdAt: row.created_at, seeds, chat: chat ?? undefined }).slice(0, -1)},"record":${record}}\n`;
}

/**
 * Writes a line. When the client's buffers are full, waits until it has taken them (`drain`); the
 * wait goes on while the client takes anything within each `idleMs`, and a client that takes
 * nothing for that long has its stream destroyed. False: the stream is over (cut off or closed).
 */
function send(out: Writable, line: string, idleMs: number): Promise<boolean> {
  if (out.destroyed) return Promise.resolve(false);
  if (out.write(line)) return Promise.resolve(true);
  return new Promise((resolve) => {
    // What is still buffered (for an HTTP response: its own and its socket's); it shrinks only as the client reads.
    let pending = out.writableLength;
    const done = (ok: boolean) => {
      clearInterval(idle);
      out.off('drain', drained);
      out.off('close', closed);
      resolve(ok);
    };
    const drained = () => done(true);
    const closed = () => done(false);
    const idle = setInterval(() => {
      if (out.writableLength < pending) {
        pending = out.writableLength;
        return;
      }
      out.destroy();
      done(false);
    }, idleMs);
    out.on('drain', drained);
    out.on('close', closed);
  });
}
