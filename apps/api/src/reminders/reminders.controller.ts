import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { SetReminderSettingsInput } from './dto/reminder-settings.input.js';
import { ReminderSettingsModel } from './models/reminder-settings.model.js';
import { reminderSettingsView } from './reminder-settings.view.js';
import { RemindersService } from './reminders.service.js';

@ApiTags('reminders')
@ApiBearerAuth()
@Controller()
export class RemindersController {
  constructor(private readonly reminders: RemindersService) {}

  @Get('me/reminder-settings')
  @ApiOkResponse({ type: ReminderSettingsModel })
  @RequireScope('read')
  async settings(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<ReminderSettingsModel> {
    return reminderSettingsView(await this.reminders.settings(caller.id));
  }

  @Put('me/reminder-settings')
  @ApiOkResponse({ type: ReminderSettingsModel, description: 'The settings as now stored; they apply from the next turn on' })
  @RequireScope('play')
  async setSettings(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: SetReminderSettingsInput): Promise<ReminderSettingsModel> {
    return reminderSettingsView(await this.reminders.setSettings(caller.id, input));
  }
}
