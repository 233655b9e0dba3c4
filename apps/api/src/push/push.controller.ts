import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { UserAgent } from '../passkeys/request-headers.decorator.js';
import { AddPushSubscriptionInput } from './dto/push-subscription.inputs.js';
import { PushDevice, PushPublicKey } from './models/push-subscription.model.js';
import { PushService } from './push.service.js';

@ApiTags('push')
@Controller()
export class PushController {
  constructor(private readonly push: PushService) {}

  @Public()
  @Get('push/public-key')
  @ApiOkResponse({ type: PushPublicKey, description: "The server's VAPID public key, which a browser subscribes to Web Push with" })
  publicKey(): PushPublicKey {
    return this.push.publicKey();
  }

  @ApiBearerAuth()
  @Post('me/push-subscriptions')
  @ApiCreatedResponse({ type: PushDevice, description: 'The browser the caller is now notified on (the same endpoint again: its keys renewed)' })
  @RequireScope('admin')
  add(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: AddPushSubscriptionInput, @UserAgent() userAgent: string | null): Promise<PushDevice> {
    return this.push.add(caller.id, input, userAgent);
  }

  @ApiBearerAuth()
  @Get('me/push-subscriptions')
  @ApiOkResponse({ type: [PushDevice], description: 'The browsers the caller is notified on, oldest first' })
  @RequireScope('admin')
  list(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<PushDevice[]> {
    return this.push.list(caller.id);
  }

  @ApiBearerAuth()
  @Delete('me/push-subscriptions/:id')
  @HttpCode(200)
  @ApiOkResponse({ type: PushDevice, description: 'The browser removed: it is notified no more' })
  @RequireScope('admin')
  remove(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<PushDevice> {
    return this.push.remove(caller.id, id);
  }
}
