import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LiveTails } from '../common/live-tail.js';
import type { AppConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { ChatBus } from './chat-bus.js';
import { roomWhere } from './chat-room.js';

/** A stored message, with its author's name. */
export interface ChatRow {
  seq: number;
  authorId: string;
  body: string;
  createdAt: Date;
  author: { id: string; name: string };
}

export const CHAT_ROW = {
  seq: true,
  authorId: true,
  body: true,
  createdAt: true,
  author: { select: { id: true, name: true } },
} as const;

const READ_PAGE = 200;
const CATCH_UP_PAGE = 100;
const logger = new Logger('ChatFollowers');

/**
 * The followers of a chat room (the gameChat subscription, its SSE stream) share one live tail per
 * room, the same machinery as a game's log (LiveTails): one read per new message for all of them,
 * woken by the ChatBus, with a poll as the safety net. Each follower drops what its viewer has
 * muted or blocked on the way out.
 */
@Injectable()
export class ChatFollowers extends LiveTails<number, ChatRow> implements OnModuleDestroy {
  constructor(prisma: PrismaService, bus: ChatBus, config: ConfigService<AppConfig, true>) {
    super({
      name: 'chat',
      read: (key, after, limit) =>
        prisma.chatMessage.findMany({ where: { room: roomWhere(key), seq: { gt: after } }, orderBy: { seq: 'asc' }, take: limit, select: CHAT_ROW }),
      position: (row) => row.seq,
      isAfter: (a, b) => a > b,
      wake: (key) => bus.wakes(key),
      pollMs: config.get('redisUrl', { infer: true }) === null ? 60_000 : 5_000,
      batch: READ_PAGE,
      page: CATCH_UP_PAGE,
      failed: (key, error) => logger.warn(`reading new messages of ${key} failed: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  onModuleDestroy(): void {
    this.closeAll();
  }
}
