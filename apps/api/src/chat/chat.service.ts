import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { badInput, conflict, DomainError, forbidden, notFound } from '../common/errors.js';
import { untilReturned } from '../common/live-tail.js';
import { decodeCursor, pageOf } from '../common/paging.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import type { ChatRoomKind, Prisma } from '../generated/prisma/client.js';
import { isUniqueViolation } from '../prisma/errors.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { RATE_LIMIT_STORE } from '../rate-limit/rate-limiter.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { ChatBus } from './chat-bus.js';
import { CHAT_ROW, ChatFollowers, type ChatRow } from './chat-followers.js';
import { roomKey, roomWhere, type ChatTable } from './chat-room.js';
import { CHAT_MAX_CHARS, chatText, REPORT_REASON_MAX_CHARS } from './chat-text.js';
import { nextChatSeqSql } from './chat.sql.js';
import type { ChatMessage, ChatMessagePage, ChatPeer, ChatReport, ChatReportPage, ChatReportStatus, ChatRoom } from './models/chat.model.js';

/** The most players one player may mute, and block: bounded rows, and a bounded filter on every read. */
export const MAX_MUTES = 1_000;
export const MAX_BLOCKS = 1_000;
/** Messages kept on each side of a reported one, as its context. */
const REPORT_CONTEXT = 5;
/** How long a follower trusts what it knows of its viewer (seat, mutes, blocks) before it reads it again. */
const VIEWER_REFRESH_MS = 5_000;
const RATE_WINDOW_MS = 60_000;

/** A table as chat sees it: who is seated, whether spectators may read the players, whether its game is over. */
interface Seating {
  seats: string[];
  spectatorsRead: boolean;
  over: boolean;
}

/** Who may read and who may write a room, for `viewerId`. */
function access(table: ChatTable, seating: Seating, viewerId: string, room: ChatRoom): { read: boolean; write: boolean } {
  const seated = seating.seats.includes(viewerId);
  if (room === 'players') return { read: seated || seating.spectatorsRead, write: seated };
  // The spectators' room: never read by the seats while the game is played (nothing may reach a
  // player through it), and a lobby's never, its game being still to come.
  return { read: !seated || ('gameId' in table && seating.over), write: !seated };
}

/** Exactly one of gameId and lobbyId, or BAD_INPUT naming gameId. */
export function tableOf(args: { gameId?: string | null; lobbyId?: string | null }): ChatTable {
  const game = args.gameId ?? null;
  const lobby = args.lobbyId ?? null;
  if ((game === null) === (lobby === null)) throw badInput('Give either gameId or lobbyId', { field: 'gameId' });
  return game !== null ? { gameId: game.toLowerCase() } : { lobbyId: lobby!.toLowerCase() };
}

function messageView(row: ChatRow, table: ChatTable, room: ChatRoom): ChatMessage {
  return {
    seq: row.seq,
    room,
    gameId: 'gameId' in table ? table.gameId : null,
    lobbyId: 'lobbyId' in table ? table.lobbyId : null,
    author: row.author,
    body: row.body,
    createdAt: row.createdAt,
  };
}

/** A page of a room ends at a seq: its cursor is that, opaque like the others. */
function seqCursor(seq: number): string {
  return Buffer.from(`chat|${seq}`).toString('base64url');
}
function seqOfCursor(cursor: string): number {
  const match = /^chat\|(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw badInput('after is not a valid cursor; pass the nextCursor of the previous page', { field: 'after' });
  return Number(match[1]);
}

const REPORT = {
  id: true,
  status: true,
  reason: true,
  context: true,
  createdAt: true,
  handledAt: true,
  reporter: { select: { id: true, name: true } },
  handledBy: { select: { id: true, name: true } },
  message: { select: { ...CHAT_ROW, room: { select: { gameId: true, lobbyId: true, kind: true } } } },
} satisfies Prisma.ChatReportSelect;

/** A stored context message (JSON in the report's row). */
interface ContextRow {
  seq: number;
  author: { id: string; name: string };
  body: string;
  createdAt: string;
}

/**
 * Table talk: each game and lobby has the players' room and the spectators' room (see `access`).
 * It lives beside the game, not in its log: the game's record, its redaction and its hidden-card
 * checks stay as they are, and a message never waits for (or holds) the game's row lock. Messages
 * are delivered live by the same machinery as the log (ChatFollowers), and hidden per viewer:
 * what they muted, whom they blocked, who blocked them.
 */
@Injectable()
export class ChatService {
  private readonly perMinute: number;
  private readonly moderators: ReadonlySet<string>;

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: ChatBus,
    private readonly followers: ChatFollowers,
    @Inject(RATE_LIMIT_STORE) private readonly rates: RateLimitStore,
    config: ConfigService<AppConfig, true>,
  ) {
    const chat = config.get('chat', { infer: true });
    this.perMinute = chat.messagesPerMinute;
    this.moderators = new Set(chat.moderators);
  }

  async send(caller: AuthenticatedPlayer, table: ChatTable, room: ChatRoom, raw: string): Promise<ChatMessage> {
    const body = chatText(raw, 'body', CHAT_MAX_CHARS);
    const seating = await this.seating(table, caller.id);
    if (!access(table, seating, caller.id, room).write) {
      throw forbidden(
        room === 'players'
          ? "Only the players seated at this table write in its players' room"
          : "The players seated at this table write in its players' room, not the spectators'",
      );
    }
    const blocked = await this.prisma.playerBlock.findFirst({
      where: { blockedId: caller.id, blockerId: { in: seating.seats } },
      select: { blockerId: true },
    });
    if (blocked) throw forbidden('A player seated at this table has blocked you: you cannot write here');
    await this.takeMessage(caller.id);
    const row = await this.prisma.$transaction(async (tx) => {
      const [next] = await queryRows(tx, nextChatSeqSql(table, room as ChatRoomKind));
      return tx.chatMessage.create({ data: { roomId: next.id, seq: next.seq, authorId: caller.id, body }, select: CHAT_ROW });
    });
    this.bus.published(roomKey(table, room as ChatRoomKind), row.seq);
    return messageView(row, table, room);
  }

  /** A room's messages, newest first, a page older than `after`; what the caller hides is left out. */
  async page(caller: AuthenticatedPlayer, table: ChatTable, room: ChatRoom, first: number, after?: string | null): Promise<ChatMessagePage> {
    const before = after ? seqOfCursor(after) : null;
    await this.checkRead(table, caller.id, room);
    const hidden = await this.hiddenAuthors(caller.id);
    const rows = await this.prisma.chatMessage.findMany({
      where: {
        room: roomWhere(roomKey(table, room as ChatRoomKind)),
        ...(before !== null ? { seq: { lt: before } } : {}),
        ...(hidden.size > 0 ? { authorId: { notIn: [...hidden] } } : {}),
      },
      orderBy: { seq: 'desc' },
      take: first + 1,
      select: CHAT_ROW,
    });
    const hasMore = rows.length > first;
    const items = rows.slice(0, first);
    return { messages: items.map((r) => messageView(r, table, room)), hasMore, nextCursor: hasMore ? seqCursor(items.at(-1)!.seq) : null };
  }

  /**
   * A room after `after`, then each message as it is committed; never ends by itself (talk goes
   * on after the game), only when the client leaves or the caller may no longer read the room.
   * Muted and blocked authors are left out, as known at most VIEWER_REFRESH_MS ago.
   */
  follow(caller: AuthenticatedPlayer, table: ChatTable, room: ChatRoom, after: number, signal?: AbortSignal, started?: () => void): AsyncIterableIterator<ChatMessage> {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const chat = this;
    return untilReturned(async function* (ended) {
      let hidden = new Set<string>();
      let checkedAt = 0;
      const look = async () => {
        await chat.checkRead(table, caller.id, room);
        hidden = await chat.hiddenAuthors(caller.id);
        checkedAt = Date.now();
      };
      const rows = chat.followers.follow(
        roomKey(table, room as ChatRoomKind),
        ended,
        async () => {
          await look();
          return { after, live: true };
        },
        started,
      );
      for await (const row of rows) {
        // A seat that left its lobby, a viewer who sat down, a mute made meanwhile.
        if (Date.now() - checkedAt > VIEWER_REFRESH_MS) await look();
        if (hidden.has(row.authorId)) continue;
        yield messageView(row, table, room);
      }
    }, signal);
  }

  /** `follow` for SSE, which must answer NOT_FOUND or FORBIDDEN before its first byte. */
  async followStream(caller: AuthenticatedPlayer, table: ChatTable, room: ChatRoom, after: number, signal?: AbortSignal, started?: () => void) {
    await this.checkRead(table, caller.id, room);
    return this.follow(caller, table, room, after, signal, started);
  }

  // --- mutes and blocks ----------------------------------------------------------------

  async mute(caller: AuthenticatedPlayer, playerId: string): Promise<ChatPeer> {
    await this.checkPeer(caller, playerId);
    if ((await this.prisma.chatMute.count({ where: { playerId: caller.id } })) >= MAX_MUTES) {
      throw conflict(`You may mute at most ${MAX_MUTES} players; unmute some first`);
    }
    const row = await this.prisma.chatMute.upsert({
      where: { playerId_mutedId: { playerId: caller.id, mutedId: playerId } },
      create: { playerId: caller.id, mutedId: playerId },
      update: {},
      select: { createdAt: true, muted: { select: { id: true, name: true } } },
    });
    return { player: row.muted, since: row.createdAt };
  }

  async unmute(caller: AuthenticatedPlayer, playerId: string): Promise<boolean> {
    const { count } = await this.prisma.chatMute.deleteMany({ where: { playerId: caller.id, mutedId: playerId } });
    return count > 0;
  }

  async mutes(caller: AuthenticatedPlayer): Promise<ChatPeer[]> {
    const rows = await this.prisma.chatMute.findMany({
      where: { playerId: caller.id },
      orderBy: { createdAt: 'desc' },
      select: { createdAt: true, muted: { select: { id: true, name: true } } },
    });
    return rows.map((r) => ({ player: r.muted, since: r.createdAt }));
  }

  async block(caller: AuthenticatedPlayer, playerId: string): Promise<ChatPeer> {
    await this.checkPeer(caller, playerId);
    if ((await this.prisma.playerBlock.count({ where: { blockerId: caller.id } })) >= MAX_BLOCKS) {
      throw conflict(`You may block at most ${MAX_BLOCKS} players; unblock some first`);
    }
    const row = await this.prisma.playerBlock.upsert({
      where: { blockerId_blockedId: { blockerId: caller.id, blockedId: playerId } },
      create: { blockerId: caller.id, blockedId: playerId },
      update: {},
      select: { createdAt: true, blocked: { select: { id: true, name: true } } },
    });
    return { player: row.blocked, since: row.createdAt };
  }

  async unblock(caller: AuthenticatedPlayer, playerId: string): Promise<boolean> {
    const { count } = await this.prisma.playerBlock.deleteMany({ where: { blockerId: caller.id, blockedId: playerId } });
    return count > 0;
  }

  async blocks(caller: AuthenticatedPlayer): Promise<ChatPeer[]> {
    const rows = await this.prisma.playerBlock.findMany({
      where: { blockerId: caller.id },
      orderBy: { createdAt: 'desc' },
      select: { createdAt: true, blocked: { select: { id: true, name: true } } },
    });
    return rows.map((r) => ({ player: r.blocked, since: r.createdAt }));
  }

  // --- reports -------------------------------------------------------------------------

  /** Reports a message the caller can read, with the few around it; once per message and reporter (again: the same report). */
  async report(caller: AuthenticatedPlayer, table: ChatTable, room: ChatRoom, seq: number, rawReason?: string | null): Promise<ChatReport> {
    const reason = chatText(rawReason ?? '', 'reason', REPORT_REASON_MAX_CHARS, true);
    await this.checkRead(table, caller.id, room);
    const where = roomWhere(roomKey(table, room as ChatRoomKind));
    const message = await this.prisma.chatMessage.findFirst({ where: { room: where, seq }, select: { roomId: true, authorId: true } });
    if (!message) throw notFound('Message');
    if (message.authorId === caller.id) throw badInput('You cannot report your own message', { field: 'seq' });
    const around = await this.prisma.chatMessage.findMany({
      where: { roomId: message.roomId, seq: { gte: seq - REPORT_CONTEXT, lte: seq + REPORT_CONTEXT } },
      orderBy: { seq: 'asc' },
      select: CHAT_ROW,
    });
    const context: ContextRow[] = around.map((r) => ({ seq: r.seq, author: r.author, body: r.body, createdAt: r.createdAt.toISOString() }));
    try {
      const row = await this.prisma.chatReport.create({
        data: { roomId: message.roomId, seq, reporterId: caller.id, reason, context: context as unknown as Prisma.InputJsonArray },
        select: REPORT,
      });
      return reportView(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const row = await this.prisma.chatReport.findUniqueOrThrow({
        where: { roomId_seq_reporterId: { roomId: message.roomId, seq, reporterId: caller.id } },
        select: REPORT,
      });
      return reportView(row);
    }
  }

  /** The moderators' queue, oldest first (the longest waiting at the top). */
  async reports(caller: AuthenticatedPlayer, status: ChatReportStatus, first: number, after?: string | null): Promise<ChatReportPage> {
    this.checkModerator(caller);
    const cursor = after ? decodeCursor(after) : null;
    const rows = await this.prisma.chatReport.findMany({
      where: {
        status,
        ...(cursor ? { OR: [{ createdAt: { gt: cursor.at } }, { createdAt: cursor.at, id: { gt: cursor.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: first + 1,
      select: REPORT,
    });
    const page = pageOf(rows, first, (r) => ({ at: r.createdAt, id: r.id }));
    return { reports: page.items.map(reportView), nextCursor: page.nextCursor, hasMore: page.hasMore };
  }

  /** Resolves or dismisses an open report; CONFLICT once it has been handled. */
  async handle(caller: AuthenticatedPlayer, reportId: string, status: ChatReportStatus): Promise<ChatReport> {
    this.checkModerator(caller);
    const { count } = await this.prisma.chatReport.updateMany({
      where: { id: reportId, status: 'open' },
      data: { status, handledAt: new Date(), handledById: caller.id },
    });
    const row = await this.prisma.chatReport.findUnique({ where: { id: reportId }, select: REPORT });
    if (!row) throw notFound('Report');
    if (count === 0) throw conflict(`This report was already ${row.status}`, { reportStatus: row.status });
    return reportView(row);
  }

  // --- helpers -------------------------------------------------------------------------

  private checkModerator(caller: AuthenticatedPlayer): void {
    if (!this.moderators.has(caller.name.toLowerCase())) throw forbidden('Only moderators (CHAT_MODERATORS) see the reports of chat messages');
  }

  private async checkPeer(caller: AuthenticatedPlayer, playerId: string): Promise<void> {
    if (playerId === caller.id) throw badInput('You cannot mute or block yourself', { field: 'playerId' });
    if (!(await this.prisma.player.findUnique({ where: { id: playerId }, select: { id: true } }))) throw notFound('Player');
  }

  /** The table's seating; NOT_FOUND for an unknown game or lobby, and for an unlisted lobby the caller is not in. */
  private async seating(table: ChatTable, viewerId: string): Promise<Seating> {
    if ('gameId' in table) {
      const game = await this.prisma.game.findUnique({
        where: { id: table.gameId },
        select: { status: true, lobby: { select: { spectatorsSeeTableChat: true } }, seats: { select: { playerId: true } } },
      });
      if (!game) throw notFound('Game');
      return { seats: game.seats.map((s) => s.playerId), spectatorsRead: game.lobby?.spectatorsSeeTableChat ?? false, over: game.status === 'finished' };
    }
    const lobby = await this.prisma.lobby.findUnique({
      where: { id: table.lobbyId },
      select: { visibility: true, hostId: true, spectatorsSeeTableChat: true, seats: { select: { playerId: true } } },
    });
    if (!lobby) throw notFound('Lobby');
    const seats = lobby.seats.map((s) => s.playerId);
    if (lobby.visibility === 'unlisted' && lobby.hostId !== viewerId && !seats.includes(viewerId)) throw notFound('Lobby');
    return { seats, spectatorsRead: lobby.spectatorsSeeTableChat, over: false };
  }

  private async checkRead(table: ChatTable, viewerId: string, room: ChatRoom): Promise<void> {
    const seating = await this.seating(table, viewerId);
    if (!access(table, seating, viewerId, room).read) {
      throw forbidden(
        room === 'players'
          ? "The host of this table keeps the players' talk to the players"
          : "The players do not see the spectators' room while the game is played",
      );
    }
  }

  /** Whose messages `viewerId` does not see: muted, blocked, or blocking them. */
  private async hiddenAuthors(viewerId: string): Promise<Set<string>> {
    const [mutes, blocks] = await Promise.all([
      this.prisma.chatMute.findMany({ where: { playerId: viewerId }, select: { mutedId: true } }),
      this.prisma.playerBlock.findMany({
        where: { OR: [{ blockerId: viewerId }, { blockedId: viewerId }] },
        select: { blockerId: true, blockedId: true },
        take: MAX_BLOCKS * 2,
      }),
    ]);
    const hidden = new Set(mutes.map((m) => m.mutedId));
    for (const b of blocks) hidden.add(b.blockerId === viewerId ? b.blockedId : b.blockerId);
    return hidden;
  }

  /** One message of the caller's budget: RATE_LIMITED past CHAT_MESSAGES_PER_MINUTE, naming `body`. */
  private async takeMessage(playerId: string): Promise<void> {
    const { count, resetMs } = await this.rates.hit(`chat:${playerId}`, 1, RATE_WINDOW_MS);
    if (count > this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
      throw new DomainError('RATE_LIMITED', `At most ${this.perMinute} chat messages a minute (CHAT_MESSAGES_PER_MINUTE); try again in ${retryAfter} s`, {
        field: 'body',
        retryAfter,
      });
    }
  }
}

function reportView(row: Prisma.ChatReportGetPayload<{ select: typeof REPORT }>): ChatReport {
  const { room } = row.message;
  const table: ChatTable = room.gameId !== null ? { gameId: room.gameId } : { lobbyId: room.lobbyId! };
  const kind = room.kind as ChatRoom;
  const context = (row.context as unknown as ContextRow[]).map((c) =>
    messageView({ seq: c.seq, authorId: c.author.id, author: c.author, body: c.body, createdAt: new Date(c.createdAt) }, table, kind),
  );
  return {
    id: row.id,
    status: row.status as ChatReportStatus,
    reason: row.reason,
    reporter: row.reporter,
    message: messageView(row.message, table, kind),
    context,
    createdAt: row.createdAt,
    handledAt: row.handledAt,
    handledBy: row.handledBy,
  };
}
