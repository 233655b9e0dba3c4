import { Int } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { badInput } from '../../common/errors.js';
import { Prop } from '../../common/model-field.js';

const MAX_SEQ = 2_147_483_647;

/** `GET /games/:id/events/stream`: where to resume (the Last-Event-ID header, a seq, wins over `after`). */
export class LogStreamQuery {
  @Prop(() => Int, { optional: true, description: 'Entries with a greater seq; 0 or omitted: from the start', api: { minimum: 0 } })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'after must be a whole number' })
  @Min(0, { message: 'after must not be negative' })
  @Max(MAX_SEQ, { message: `after must be at most ${MAX_SEQ}` })
  after?: number;
}

/** The seq to resume after: Last-Event-ID when given (BAD_INPUT naming it when not a seq), else `after`, else 0. */
export function resumeSeq(lastEventId: string | undefined, after: number | undefined): number {
  const header = lastEventId?.trim();
  if (header) {
    if (!/^\d{1,10}$/.test(header) || Number(header) > MAX_SEQ) {
      throw badInput('Last-Event-ID must be the seq of the last entry received', { field: 'Last-Event-ID' });
    }
    return Number(header);
  }
  return after ?? 0;
}
