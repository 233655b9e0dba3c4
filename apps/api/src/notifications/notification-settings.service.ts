import { Inject, Optional, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Mailer } from '../accounts/mailer.js';
import { badInput } from '../common/errors.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { NOTICE_CLOCK, systemClock, type NoticeClock } from './clock.js';
import type { SetNotificationSettingsInput } from './dto/notification-settings.inputs.js';
import type { NotificationSettings } from './models/notification-settings.model.js';
import { NoticeChannels } from './notice-channels.js';
import { ensureCursorSql, playerNoticeStateSql, unsubscribeSql, writeSettingsSql, type SettingsChange } from './notifications.sql.js';
import { formatLocalTime, isTimeZone, parseLocalTime, preferencesOf } from './preferences.js';

/** A player's notification preferences: read with defaults filled in, changed field by field. */
@Injectable()
export class NotificationSettingsService {
  private readonly defaults: { digestMinutes: number; activeMinutes: number };

  constructor(
    private readonly prisma: PrismaService,
    private readonly channels: NoticeChannels,
    private readonly mailer: Mailer,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(NOTICE_CLOCK) private readonly clock: NoticeClock = systemClock,
  ) {
    const n = config.get('notifications', { infer: true });
    this.defaults = { digestMinutes: n.digestMinutes, activeMinutes: n.activeMinutes };
  }

  async get(playerId: string): Promise<NotificationSettings> {
    const [row] = await queryRows(this.prisma, playerNoticeStateSql(playerId));
    const prefs = preferencesOf(row?.found ? row : undefined, this.defaults);
    return {
      pushKinds: prefs.pushKinds,
      emailKinds: prefs.emailKinds,
      emailMode: prefs.emailMode,
      digestMinutes: prefs.digestMinutes,
      quietStart: prefs.quietStart === null ? null : formatLocalTime(prefs.quietStart),
      quietEnd: prefs.quietEnd === null ? null : formatLocalTime(prefs.quietEnd),
      timeZone: prefs.timeZone,
      activeMinutes: prefs.activeMinutes,
      emailAvailable: this.mailer.enabled && this.channels.get('email') !== undefined,
      emailVerified: row?.email != null,
      pushAvailable: this.channels.get('push') !== undefined,
    };
  }

  /** Changes what the input names; the rest stays. BAD_INPUT names the field at fault. */
  async set(playerId: string, input: SetNotificationSettingsInput): Promise<NotificationSettings> {
    const change: SettingsChange = {};
    const current = await this.get(playerId);
    if (input.pushKinds != null || input.emailKinds != null) {
      change.pushKinds = [...new Set(input.pushKinds ?? current.pushKinds)];
      change.emailKinds = [...new Set(input.emailKinds ?? current.emailKinds)];
    }
    if (input.emailMode != null) change.emailMode = input.emailMode;
    if (input.digestMinutes != null) change.digestMinutes = input.digestMinutes;
    if (input.activeMinutes != null) change.activeMinutes = input.activeMinutes;
    if (input.timeZone != null) {
      if (!isTimeZone(input.timeZone)) throw badInput('timeZone must be an IANA time zone, such as Europe/Warsaw', { field: 'timeZone' });
      change.timeZone = input.timeZone;
    }
    if (input.quietStart !== undefined || input.quietEnd !== undefined) {
      const start = input.quietStart === undefined ? current.quietStart : input.quietStart;
      const end = input.quietEnd === undefined ? current.quietEnd : input.quietEnd;
      if (start === null && end === null) change.quiet = null;
      else if (start === null || start === '') throw badInput('quietStart must be given with quietEnd (both null: no quiet hours)', { field: 'quietStart' });
      else if (end === null || end === '') throw badInput('quietEnd must be given with quietStart (both null: no quiet hours)', { field: 'quietEnd' });
      else {
        const quiet = { start: parseLocalTime(start, 'quietStart'), end: parseLocalTime(end, 'quietEnd') };
        if (quiet.start === quiet.end) throw badInput('quietEnd must differ from quietStart', { field: 'quietEnd' });
        change.quiet = quiet;
      }
    }
    const at = new Date(this.clock.now());
    await this.prisma.$transaction([this.prisma.$executeRaw(ensureCursorSql(playerId)), this.prisma.$executeRaw(writeSettingsSql(playerId, change, at))]);
    return this.get(playerId);
  }

  /** One-click unsubscribe: email off for the token's player; false for a token nobody has. */
  async unsubscribe(token: string): Promise<boolean> {
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return false;
    const rows = await queryRows(this.prisma, unsubscribeSql(token, new Date(this.clock.now())));
    return rows.length > 0;
  }
}
