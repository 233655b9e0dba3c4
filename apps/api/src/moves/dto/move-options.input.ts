import { InputType, Int } from '@nestjs/graphql';
import { IsInt, IsOptional, IsString, isInt, isUUID, Length, length, Max, max, Min, min } from 'class-validator';
import type { QuickCheck } from '../../common/input-validation.js';
import { Prop } from '../../common/model-field.js';

const INT_MAX = 2 ** 31 - 1; // GraphQL's Int, and the version column

/** What every action on a game may carry, a move or a resignation: a version guard and an idempotency key. */
@InputType({ isAbstract: true })
export class MoveOptionsBody {
  @Prop(() => Int, {
    optional: true,
    description: 'The game version the caller acted on; CONFLICT if it is no longer current',
    api: { minimum: 0, maximum: INT_MAX },
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  expectedVersion?: number;

  @Prop(() => String, {
    optional: true,
    description: 'Retrying with the same key returns the first result instead of acting again',
    // REST has its own word on the key: the header
    api: { minLength: 1, maxLength: 128, description: 'May also be sent as the Idempotency-Key header' },
  })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  idempotencyKey?: string;
}

export const MOVE_OPTIONS_FIELDS = ['expectedVersion', 'idempotencyKey'] as const;

/** The class-validator rules above, as a quick check of `@QuickChecked` inputs (null or absent: @IsOptional). */
export function validMoveOptions(input: Readonly<Record<string, unknown>>): boolean {
  const { expectedVersion: version, idempotencyKey: key } = input;
  return (
    (version == null || (isInt(version) && min(version, 0) && max(version, INT_MAX))) &&
    (key == null || (typeof key === 'string' && length(key, 1, 128)))
  );
}

/** A body's quick check, for its GraphQL input: the same body plus the game's id (@IsUUID('all')). */
export function withGameId(check: QuickCheck): QuickCheck {
  return ({ gameId, ...body }) => isUUID(gameId, 'all') && check(body);
}
