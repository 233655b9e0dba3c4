import { Body, Controller, Get, Header, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { SetNotificationSettingsInput } from './dto/notification-settings.inputs.js';
import { escapeHtml } from './email-channel.js';
import { NotificationSettings } from './models/notification-settings.model.js';
import { NotificationSettingsService } from './notification-settings.service.js';

@ApiTags('notifications')
@Controller()
export class NotificationsController {
  constructor(private readonly settings: NotificationSettingsService) {}

  @ApiBearerAuth()
  @Get('me/notification-settings')
  @ApiOkResponse({ type: NotificationSettings })
  @RequireScope('read')
  get(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<NotificationSettings> {
    return this.settings.get(caller.id);
  }

  @ApiBearerAuth()
  @Patch('me/notification-settings')
  @ApiOkResponse({ type: NotificationSettings, description: 'The settings as changed; fields left out stay as they are' })
  @RequireScope('play')
  set(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: SetNotificationSettingsInput): Promise<NotificationSettings> {
    return this.settings.set(caller.id, input);
  }

  /** The link of a mail's footer: a page that asks before turning email off (a link scanner must not unsubscribe). */
  @Public()
  @Get('unsubscribe')
  @ApiQuery({ name: 'token', type: String })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'A page with a button that turns email off', schema: { type: 'string' } })
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('referrer-policy', 'no-referrer')
  confirm(@Query('token') token: unknown): string {
    const value = typeof token === 'string' ? token.slice(0, 64) : '';
    return page(
      'Stop notification email?',
      `<form method="post" action="?token=${escapeHtml(encodeURIComponent(value))}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop email from Mizerka</button></form>`,
    );
  }

  /** RFC 8058 one-click: the mail client POSTs `List-Unsubscribe=One-Click`; no sign-in, the token is the key. */
  @Public()
  @Post('unsubscribe')
  @HttpCode(200)
  @ApiQuery({ name: 'token', type: String })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'Email is off for the player the link was made for (an unknown token changes nothing)', schema: { type: 'string' } })
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  async unsubscribe(@Query('token') token: unknown): Promise<string> {
    const done = typeof token === 'string' && (await this.settings.unsubscribe(token));
    return done
      ? page('Email is off', '<p>You will get no more notification email. Turn it on again in your settings.</p>')
      : page('Link not recognised', '<p>This unsubscribe link is not valid (any more). Change your email settings after signing in.</p>');
  }
}

/** A small page of the server's own words (nothing of the request is written into it unescaped). */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
