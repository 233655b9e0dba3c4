import { ArgsType } from '@nestjs/graphql';
import { IsString, Length } from 'class-validator';
import { Prop } from '../../common/model-field.js';

/** `stats(preset)` on PlayerProfile; REST `?preset=`. */
@ArgsType()
export class StatsArgs {
  @Prop({ description: 'classic, classic-4, short, short-4, bidding or bidding-4', example: 'classic' })
  @IsString({ message: 'preset must be a preset name' })
  @Length(1, 32, { message: 'preset must be 1 to 32 characters long' })
  preset!: string;
}

/** `headToHead(other)` on PlayerProfile. */
@ArgsType()
export class HeadToHeadArgs {
  @Prop({ description: "The other player's name", example: 'ola' })
  @IsString({ message: 'other must be a player name' })
  @Length(1, 32, { message: 'other must be 1 to 32 characters long' })
  other!: string;
}
