import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { UserAgent } from '../passkeys/request-headers.decorator.js';
import { AddPushSubscriptionInput } from './dto/push-subscription.inputs.js';
import { PushDevice, PushPublicKey } from './models/push-subscription.model.js';
import { PushService } from './push.service.js';

@Resolver(() => PushDevice)
export class PushResolver {
  constructor(private readonly push: PushService) {}

  @Public()
  @Query(() => PushPublicKey, { description: "The server's VAPID public key, which a browser subscribes to Web Push with" })
  pushPublicKey(): PushPublicKey {
    return this.push.publicKey();
  }

  @Mutation(() => PushDevice, { description: "Notify the caller on this browser: its push subscription (PushSubscription.toJSON()'s endpoint and keys)" })
  @RequireScope('admin')
  addPushSubscription(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('input') input: AddPushSubscriptionInput,
    @UserAgent() userAgent: string | null,
  ): Promise<PushDevice> {
    return this.push.add(caller.id, input, userAgent);
  }

  @Query(() => [PushDevice], { description: 'The browsers the caller is notified on, oldest first' })
  @RequireScope('admin')
  myPushSubscriptions(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<PushDevice[]> {
    return this.push.list(caller.id);
  }

  @Mutation(() => PushDevice, { description: 'Stop notifying one of the caller’s browsers' })
  @RequireScope('admin')
  removePushSubscription(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<PushDevice> {
    return this.push.remove(caller.id, id);
  }
}
