import { ArgsType, Field, GraphQLISODateTime, InputType } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { DateTimeInput } from '../../common/date-time.js';

const UNTIL = 'When the vacation ends by itself; default, and at the latest: where the year’s allowance runs out';

@InputType()
export class StartVacationInput {
  @Field(() => GraphQLISODateTime, { nullable: true, description: UNTIL })
  @ApiPropertyOptional({ type: String, format: 'date-time', description: UNTIL, example: '2026-08-15T08:00:00Z' })
  @IsOptional()
  @DateTimeInput('until')
  until?: Date | null;
}

@ArgsType()
export class VacationPreviewArgs {
  @Field(() => GraphQLISODateTime, { nullable: true, description: UNTIL })
  @ApiPropertyOptional({ type: String, format: 'date-time', description: UNTIL })
  @IsOptional()
  @DateTimeInput('until')
  until?: Date | null;
}
