import { ID } from '@nestjs/graphql';
import { Model, Prop } from '../../common/model-field.js';

@Model({ description: 'A registered player' })
export class Player {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'ala' })
  name!: string;

  @Prop()
  createdAt!: Date;
}

@Model({ description: 'An API token of the caller; its secret is shown only when created' })
export class ApiToken {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'laptop' })
  name!: string;

  @Prop()
  createdAt!: Date;

  @Prop(() => Date, { nullable: true })
  lastUsedAt!: Date | null;

  @Prop(() => Date, { nullable: true })
  revokedAt!: Date | null;
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
