import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import webpush from 'web-push';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { vapidKeyPairSql } from './push.sql.js';

export interface VapidKeyPair {
  publicKey: string;
  privateKey: string;
}

/**
 * The server's VAPID key pair (RFC 8292): from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set, else
 * the one kept in the database, made by the first instance that started (insert-if-absent, so of
 * instances starting together all end with the pair inserted first). Read once, at start.
 */
@Injectable()
export class VapidKeys implements OnModuleInit {
  private pair: VapidKeyPair | null = null;

  constructor(
    private readonly prisma: PrismaService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async onModuleInit(): Promise<void> {
    this.pair = this.config.get('push', { infer: true }).vapidKeys ?? (await this.stored());
  }

  /** The stored pair, this instance's new one inserted first if there was none. */
  async stored(): Promise<VapidKeyPair> {
    const [row] = await queryRows(this.prisma, vapidKeyPairSql(webpush.generateVAPIDKeys()));
    if (!row) throw new Error('The VAPID key pair was neither inserted nor found');
    return { publicKey: row.public_key, privateKey: row.private_key };
  }

  get keys(): VapidKeyPair {
    if (!this.pair) throw new Error('The VAPID keys are read at start (onModuleInit) and were not');
    return this.pair;
  }
}
