import { ArgsType } from '@nestjs/graphql';
import { IsString, Length } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { PRESET_WORDS } from '../../games/index.js';

/** `stats(preset)` on PlayerProfile; REST `?preset=`. */
@ArgsType()
export class StatsArgs {
  @Prop({ description: PRESET_WORDS, example: 'classic' })
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
