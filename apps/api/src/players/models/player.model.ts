import { ID } from '@nestjs/graphql';
import type { TokenScope } from '../../auth/scopes.js';
import { Model, Prop } from '../../common/model-field.js';
import { BotLevelEnum, PlayerKindEnum, type PlayerKindValue } from './player-kind.enum.js';
import { TokenScopeEnum } from './token-scope.enum.js';

@Model({ description: 'A registered player' })
export class Player {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'ala' })
  name!: string;

  @Prop(() => PlayerKindEnum, { enumRef: true, description: 'human or bot' })
  kind!: PlayerKindValue;

  @Prop(() => BotLevelEnum, {
    nullable: true,
    enumRef: true,
    description: "A server bot's level; null for a person and for a bot account played through the API",
  })
  botLevel!: string | null;

  @Prop()
  createdAt!: Date;
}

@Model({ description: 'An API token of the caller; its secret is shown only when created' })
export class ApiToken {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'laptop' })
  name!: string;

  @Prop(() => [TokenScopeEnum], { enumRef: true, description: 'What the token may do' })
  scopes!: TokenScope[];

  @Prop(() => Date, { nullable: true, description: 'When the token stops working; null: never' })
  expiresAt!: Date | null;

  @Prop()
  createdAt!: Date;

  @Prop(() => Date, { nullable: true })
  lastUsedAt!: Date | null;

  @Prop(() => Date, { nullable: true })
  revokedAt!: Date | null;
}

@Model({ description: "A page of the caller's API tokens, oldest first" })
export class ApiTokenPage {
  @Prop(() => [ApiToken])
  tokens!: ApiToken[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'More tokens follow this page' })
  hasMore!: boolean;
}

@Model()
export class RegisterPayload {
  @Prop(() => Player)
  player!: Player;

  @Prop({ description: 'The bearer token; store it now, it is never shown again', example: 'mzk_…' })
  token!: string;
}

@Model()
export class CreateApiTokenPayload {
  @Prop(() => ApiToken)
  apiToken!: ApiToken;

  @Prop({ description: 'The bearer token; store it now, it is never shown again', example: 'mzk_…' })
  token!: string;
}
