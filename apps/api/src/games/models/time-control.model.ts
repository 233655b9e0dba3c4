import { Float, GraphQLISODateTime, InputType, Int } from '@nestjs/graphql';
import { IsEnum, IsInt, IsOptional } from 'class-validator';
import { Model, Prop, registerEnum } from '../../common/model-field.js';
import { DEFAULT_MAX_TIMEOUTS, MAX_BANK_SECONDS, MAX_MOVE_SECONDS, MAX_TIMEOUTS_LIMIT } from '../time-control.js';

export enum TimeoutPolicyEnum {
  autoMove = 'autoMove',
  forfeit = 'forfeit',
}
registerEnum(TimeoutPolicyEnum, {
  name: 'TimeoutPolicy',
  description: 'At a time-out: autoMove — the server makes a simple legal move for the seat; forfeit — the seat forfeits the game',
});

@InputType()
export class TimeControlInput {
  @Prop(() => Int, {
    description: `Seconds per move, from the server's minimum (MIN_MOVE_SECONDS, default 60) to ${MAX_MOVE_SECONDS} (14 days)`,
    example: 86400,
  })
  @IsInt({ message: 'timeControl.moveSeconds must be a whole number' })
  moveSeconds!: number;

  @Prop(() => Int, {
    optional: true,
    description: `Extra seconds per player that slow moves draw on, never refilled; 0 to ${MAX_BANK_SECONDS} (default 0)`,
    api: { default: 0, minimum: 0, maximum: MAX_BANK_SECONDS },
  })
  @IsOptional()
  @IsInt({ message: 'timeControl.bankSeconds must be a whole number' })
  bankSeconds?: number | null;

  @Prop(() => TimeoutPolicyEnum, { optional: true, enumRef: true })
  @IsOptional()
  @IsEnum(TimeoutPolicyEnum, { message: 'timeControl.onTimeout must be "autoMove" or "forfeit"' })
  onTimeout?: TimeoutPolicyEnum | null;

  @Prop(() => Int, {
    optional: true,
    description: `Time-outs in a row by one seat that forfeit the game, 1 to ${MAX_TIMEOUTS_LIMIT} (default ${DEFAULT_MAX_TIMEOUTS})`,
    api: { default: DEFAULT_MAX_TIMEOUTS, minimum: 1, maximum: MAX_TIMEOUTS_LIMIT },
  })
  @IsOptional()
  @IsInt({ message: 'timeControl.maxTimeouts must be a whole number' })
  maxTimeouts?: number | null;
}

@Model({ description: 'A move clock: time per move, a bank per player, and what a time-out does' })
export class TimeControlModel {
  @Prop(() => Int, { description: 'Seconds per move' })
  moveSeconds!: number;

  @Prop(() => Int, { description: 'Extra seconds per player that slow moves draw on' })
  bankSeconds!: number;

  @Prop(() => TimeoutPolicyEnum, { enumRef: true })
  onTimeout!: TimeoutPolicyEnum;

  @Prop(() => Int, { description: 'Time-outs in a row by one seat that forfeit the game' })
  maxTimeouts!: number;
}

@Model({ description: "A timed game's clock: the current turn's deadline, banks left and time-outs in a row" })
export class GameClockModel {
  @Prop(() => TimeControlModel)
  timeControl!: TimeControlModel;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'When the current turn began (the write that made it this seat’s turn)' })
  turnStartedAt!: Date | null;

  @Prop(() => GraphQLISODateTime, { nullable: true, description: 'When the seat to move must have moved; null when nobody is to move' })
  deadline!: Date | null;

  @Prop(() => GraphQLISODateTime, {
    nullable: true,
    optional: true,
    description: 'Set while the turn’s clock is stopped because its player is on vacation: since when (deadline is null meanwhile)',
  })
  pausedAt?: Date | null;

  @Prop(() => [Float], { description: 'Bank seconds left, by seat' })
  bankSeconds!: number[];

  @Prop(() => [Int], { description: 'Time-outs in a row, by seat' })
  timeouts!: number[];
}
