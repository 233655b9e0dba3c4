import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { SetReminderSettingsInput } from './dto/reminder-settings.input.js';
import { ReminderSettingsModel } from './models/reminder-settings.model.js';
import { reminderSettingsView } from './reminder-settings.view.js';
import { RemindersService } from './reminders.service.js';

@Resolver(() => ReminderSettingsModel)
export class RemindersResolver {
  constructor(private readonly reminders: RemindersService) {}

  @Query(() => ReminderSettingsModel, { description: "When the caller is reminded before a turn's time-out, per channel" })
  @RequireScope('read')
  async myReminderSettings(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<ReminderSettingsModel> {
    return reminderSettingsView(await this.reminders.settings(caller.id));
  }

  @Mutation(() => ReminderSettingsModel, { description: 'Set the moments of reminders before a time-out (from the next turn on); a channel omitted is unchanged' })
  @RequireScope('play')
  async setReminderSettings(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: SetReminderSettingsInput): Promise<ReminderSettingsModel> {
    return reminderSettingsView(await this.reminders.setSettings(caller.id, input));
  }
}
