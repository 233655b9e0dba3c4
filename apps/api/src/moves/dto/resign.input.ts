import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { Prop } from '../../common/model-field.js';

/** The body of POST /api/v1/games/:id/resign: both fields optional, as for a move. */
@InputType({ isAbstract: true })
export class ResignBody {
  @Prop(() => Int, {
    optional: true,
    description: 'The game version the caller resigned at; CONFLICT if it is no longer current',
    api: { minimum: 0, maximum: 2147483647 },
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2147483647)
  expectedVersion?: number;

  @Prop(() => String, {
    optional: true,
    description: 'Retrying with the same key returns the first result',
    api: { minLength: 1, maxLength: 128, description: 'May also be sent as the Idempotency-Key header' },
  })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  idempotencyKey?: string;
}

@InputType({ description: 'Resign a game: it ends at once, the resigning seat placed last' })
export class ResignInput extends ResignBody {
  @Field(() => ID)
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId!: string;
}
