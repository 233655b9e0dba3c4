import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';

@ObjectType({ description: 'A registered player' })
export class Player {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @Field()
  @ApiProperty({ example: 'ala' })
  name!: string;

  @Field()
  @ApiProperty()
  createdAt!: Date;
}

@ObjectType({ description: 'An API token of the caller; its secret is shown only when created' })
export class ApiToken {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @Field()
  @ApiProperty({ example: 'laptop' })
  name!: string;

  @Field()
  @ApiProperty()
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  @ApiProperty({ type: Date, nullable: true })
  lastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  @ApiProperty({ type: Date, nullable: true })
  revokedAt!: Date | null;
}

@ObjectType()
export class RegisterPayload {
  @Field(() => Player)
  @ApiProperty({ type: Player })
  player!: Player;

  @Field({ description: 'The bearer token; store it now, it is never shown again' })
  @ApiProperty({ example: 'mzk_…' })
  token!: string;
}

@ObjectType()
export class CreateApiTokenPayload {
  @Field(() => ApiToken)
  @ApiProperty({ type: ApiToken })
  apiToken!: ApiToken;

  @Field({ description: 'The bearer token; store it now, it is never shown again' })
  @ApiProperty({ example: 'mzk_…' })
  token!: string;
}
