import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { StartVacationInput, VacationPreviewArgs } from './dto/vacation.inputs.js';
import { VacationPreview, VacationStatus } from './models/vacation.model.js';
import { VacationsService } from './vacations.service.js';

@Resolver()
export class VacationsResolver {
  constructor(private readonly vacations: VacationsService) {}

  @Query(() => VacationStatus, { description: "The caller's vacation: away or not, the days left this year, the games it would leave running" })
  @RequireScope('read')
  myVacation(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<VacationStatus> {
    return this.vacations.status(caller);
  }

  @Query(() => VacationPreview, { description: 'What starting a vacation would do (the games it stops, those that keep running, the days it counts); changes nothing' })
  @RequireScope('read')
  vacationPreview(@CurrentPlayer() caller: AuthenticatedPlayer, @Args() args: VacationPreviewArgs): Promise<VacationPreview> {
    return this.vacations.preview(caller, args.until ?? null);
  }

  @Mutation(() => VacationStatus, {
    description:
      'Go on vacation: your clocks stop in your timed games that allow it, until you end it or `until`. Already away: the same answer, ' +
      'nothing counted again. CONFLICT (with `daysLeft`) without allowance left. `keptRunning` lists the games whose clocks do not stop.',
  })
  @RequireScope('play')
  startVacation(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input', { type: () => StartVacationInput, nullable: true }) input: StartVacationInput | null): Promise<VacationStatus> {
    return this.vacations.start(caller, input?.until ?? null);
  }

  @Mutation(() => VacationStatus, { description: 'Come back from vacation: your stopped clocks run again with the time they had. Not away: the same answer.' })
  @RequireScope('play')
  endVacation(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<VacationStatus> {
    return this.vacations.end(caller);
  }
}
