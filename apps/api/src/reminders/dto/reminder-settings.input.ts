import { InputType, Int } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { MAX_POINTS, PERCENT, SECONDS_BEFORE } from '../reminder-points.js';

@InputType()
export class ReminderPointInput {
  @Prop(() => Int, {
    optional: true,
    description: `When this share (%) of the time the turn was given is left, ${PERCENT.min} to ${PERCENT.max}; or give secondsBefore`,
    example: 50,
    api: { minimum: PERCENT.min, maximum: PERCENT.max },
  })
  @IsOptional()
  @IsInt({ message: 'percent must be a whole number' })
  @Min(PERCENT.min, { message: `percent must be ${PERCENT.min} to ${PERCENT.max}` })
  @Max(PERCENT.max, { message: `percent must be ${PERCENT.min} to ${PERCENT.max}` })
  percent?: number | null;

  @Prop(() => Int, {
    optional: true,
    description: `This many seconds before the deadline, ${SECONDS_BEFORE.min} to ${SECONDS_BEFORE.max}; or give percent`,
    example: 3600,
    api: { minimum: SECONDS_BEFORE.min, maximum: SECONDS_BEFORE.max },
  })
  @IsOptional()
  @IsInt({ message: 'secondsBefore must be a whole number' })
  @Min(SECONDS_BEFORE.min, { message: `secondsBefore must be ${SECONDS_BEFORE.min} to ${SECONDS_BEFORE.max}` })
  @Max(SECONDS_BEFORE.max, { message: `secondsBefore must be ${SECONDS_BEFORE.min} to ${SECONDS_BEFORE.max}` })
  secondsBefore?: number | null;
}

const CHANNEL = (name: string) => ({
  optional: true,
  description: `Moments for ${name}, at most ${MAX_POINTS} (an empty list: none); omitted: unchanged`,
  api: { maxItems: MAX_POINTS },
});

@InputType()
export class SetReminderSettingsInput {
  @Prop(() => [ReminderPointInput], CHANNEL('Web Push'))
  @IsOptional()
  @IsArray({ message: 'push must be a list' })
  @ArrayMaxSize(MAX_POINTS, { message: `push holds at most ${MAX_POINTS} reminder points` })
  @ValidateNested({ each: true })
  @Type(() => ReminderPointInput)
  push?: ReminderPointInput[] | null;

  @Prop(() => [ReminderPointInput], CHANNEL('email'))
  @IsOptional()
  @IsArray({ message: 'email must be a list' })
  @ArrayMaxSize(MAX_POINTS, { message: `email holds at most ${MAX_POINTS} reminder points` })
  @ValidateNested({ each: true })
  @Type(() => ReminderPointInput)
  email?: ReminderPointInput[] | null;
}
