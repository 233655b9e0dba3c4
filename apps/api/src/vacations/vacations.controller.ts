import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { StartVacationInput, VacationPreviewArgs } from './dto/vacation.inputs.js';
import { VacationPreview, VacationStatus } from './models/vacation.model.js';
import { VacationsService } from './vacations.service.js';

@ApiTags('vacation')
@ApiBearerAuth()
@Controller('me/vacation')
export class VacationsController {
  constructor(private readonly vacations: VacationsService) {}

  @Get()
  @RequireScope('read')
  @ApiOkResponse({ type: VacationStatus, description: "The caller's vacation: away or not, the days left this year, the games it would leave running" })
  status(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<VacationStatus> {
    return this.vacations.status(caller);
  }

  @Get('preview')
  @RequireScope('read')
  @ApiOkResponse({ type: VacationPreview, description: 'What starting a vacation would do; changes nothing' })
  preview(@CurrentPlayer() caller: AuthenticatedPlayer, @Query() query: VacationPreviewArgs): Promise<VacationPreview> {
    return this.vacations.preview(caller, query.until ?? null);
  }

  @Post()
  @HttpCode(200)
  @RequireScope('play')
  @ApiOkResponse({ type: VacationStatus, description: 'Go on vacation (idempotent); 409 with `daysLeft` without allowance left' })
  start(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() body: StartVacationInput): Promise<VacationStatus> {
    return this.vacations.start(caller, body?.until ?? null);
  }

  @Delete()
  @RequireScope('play')
  @ApiOkResponse({ type: VacationStatus, description: 'Come back from vacation (idempotent)' })
  end(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<VacationStatus> {
    return this.vacations.end(caller);
  }
}
