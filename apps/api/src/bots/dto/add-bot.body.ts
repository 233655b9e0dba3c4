import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional } from 'class-validator';
import { BOT_LEVELS, type BotLevel } from '@mizerka/bots';

/** REST body of POST /lobbies/:id/bots. */
export class AddBotBody {
  @ApiProperty({ enum: BOT_LEVELS, example: 'strong', description: 'random, basic or strong' })
  @IsIn(BOT_LEVELS, { message: 'level must be random, basic or strong' })
  level!: BotLevel;

  @ApiProperty({ required: false, type: 'integer', nullable: true, description: 'A free seat; omitted: the lowest free seat', minimum: 0 })
  @IsOptional()
  @IsInt({ message: 'seat must be a whole number' })
  seat?: number | null;
}
