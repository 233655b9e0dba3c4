import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { SetNotificationSettingsInput } from './dto/notification-settings.inputs.js';
import { NotificationSettings } from './models/notification-settings.model.js';
import { NotificationSettingsService } from './notification-settings.service.js';

@Resolver()
export class NotificationsResolver {
  constructor(private readonly settings: NotificationSettingsService) {}

  @Query(() => NotificationSettings, { description: "How the caller, when away, is told of their games (defaults filled in)" })
  @RequireScope('read')
  myNotificationSettings(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<NotificationSettings> {
    return this.settings.get(caller.id);
  }

  // `play`: an app that plays for the player may set how they hear of their turns; a `read` token
  // (a viewer) may not silence them. Not `admin`: nothing of the account's credentials.
  @Mutation(() => NotificationSettings, { description: 'Change the caller’s notification settings; fields left out stay as they are' })
  @RequireScope('play')
  setNotificationSettings(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: SetNotificationSettingsInput): Promise<NotificationSettings> {
    return this.settings.set(caller.id, input);
  }
}
