import { Int } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';

@Model('ReminderPoint', { description: 'A moment before a time-out: a share of the turn’s time left, or a fixed time before the deadline (exactly one is set)' })
export class ReminderPointModel {
  @Prop(() => Int, { nullable: true, description: 'When this share (%) of the time the turn was given is left, 1 to 99' })
  percent!: number | null;

  @Prop(() => Int, { nullable: true, description: 'This many seconds before the deadline, 60 to 2592000 (30 days)' })
  secondsBefore!: number | null;
}

@Model('ReminderSettings', {
  description:
    'When the caller is reminded of a timed turn before its time-out, per notice channel; the defaults (50 %, 10 % of the time left, 1 hour before) until set. ' +
    'Each moment fires once per turn (moments of both channels on the same second fire once, naming both); a move cancels the rest.',
})
export class ReminderSettingsModel {
  @Prop(() => [ReminderPointModel], { description: 'Moments for Web Push' })
  push!: ReminderPointModel[];

  @Prop(() => [ReminderPointModel], { description: 'Moments for email' })
  email!: ReminderPointModel[];
}
