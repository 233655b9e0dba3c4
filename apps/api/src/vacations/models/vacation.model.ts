import { GraphQLISODateTime, Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';

@Model({ description: 'A game of the caller’s, as a vacation concerns it' })
export class VacationGame {
  @Prop({ format: 'uuid' })
  gameId!: string;

  @Prop()
  preset!: string;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'The deadline of its turn now (null: untimed, nobody to move, or stopped)' })
  deadline!: Date | null;
}

@Model({ description: 'The caller’s vacation: away or not, and the year’s allowance' })
export class VacationStatus {
  @Prop({ description: 'Whether the caller is on vacation now' })
  away!: boolean;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'When the current (else the last) vacation began; null: never taken' })
  startedAt!: Date | null;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'When the current (else the last) vacation ends (ended) by itself' })
  until!: Date | null;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'When the last vacation ended; null while away' })
  endedAt!: Date | null;

  @Prop(() => Int, { description: 'Vacation days a calendar year (UTC) allows; each started day of a vacation counts once' })
  allowanceDays!: number;

  @Prop(() => Int, { description: 'Days left this year (an open vacation counts its days begun so far)' })
  daysLeft!: number;

  @Prop(() => Int, { description: 'The year the allowance is counted in' })
  year!: number;

  @Prop(() => [VacationGame], { description: 'Timed games of the caller’s in play that do not allow vacation: their clocks keep running' })
  keptRunning!: VacationGame[];
}

@Model({ description: 'What starting a vacation would do; nothing is changed' })
export class VacationPreview extends VacationStatus {
  @Prop({ description: 'Whether it may start (always true while away: starting again changes nothing)' })
  allowed!: boolean;

  @Prop(() => Int, { description: 'The days it would count if it ran to `until`' })
  days!: number;

  @Prop(() => [VacationGame], { description: 'Timed games of the caller’s in play whose clocks it would stop' })
  stopped!: VacationGame[];
}
