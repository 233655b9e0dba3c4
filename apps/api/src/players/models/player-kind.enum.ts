import type { BotLevel } from '@mizerka/bots';
import { registerEnum } from '../../common/model-field.js';

export const PlayerKindEnum = { human: 'human', bot: 'bot' } as const;
export type PlayerKindValue = (typeof PlayerKindEnum)[keyof typeof PlayerKindEnum];

export const BotLevelEnum = { random: 'random', basic: 'basic', strong: 'strong' } as const satisfies Record<BotLevel, BotLevel>;

registerEnum(PlayerKindEnum, {
  name: 'PlayerKind',
  description: 'human (a person) or bot (a computer player: one the server moves, or a bot account playing through the API)',
});
registerEnum(BotLevelEnum, {
  name: 'BotLevel',
  description: 'How a server bot plays: random (any legal move), basic (simple rules of thumb) or strong (searches sampled deals)',
});
