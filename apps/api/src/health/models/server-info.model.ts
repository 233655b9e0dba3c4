import { ApiProperty } from '@nestjs/swagger';
import { Model, Prop } from '../../common/model-field.js';

@Model({ description: 'Which release of the server answers, and which major version of the API it keeps' })
export class ServerInfo {
  @Prop({ example: '1.0.0', description: "The server's release (semantic versioning of the API surfaces; CHANGELOG.md)" })
  version!: string;

  @Prop({ example: '1', description: 'The major version of the API: nothing a client uses is removed or changed within it' })
  apiVersion!: string;
}

// REST only (GraphQL has @deprecated and introspection): plain OpenAPI classes, no GraphQL type.

/** A deprecated REST route, or one parameter of it: it works until its sunset. */
export class DeprecationModel {
  @ApiProperty({ example: 'GET /api/v1/games/{id}/events' })
  route!: string;

  @ApiProperty({ type: String, nullable: true, example: 'limit', description: 'The deprecated query parameter; null: the whole route' })
  parameter!: string | null;

  @ApiProperty({ example: '2026-12-01', description: 'The day it was deprecated (UTC)' })
  since!: string;

  @ApiProperty({ example: '2027-06-01', description: 'The earliest day it may be removed (UTC), at least 6 months after `since`' })
  sunset!: string;

  @ApiProperty({ description: 'What to use instead' })
  instead!: string;
}

/** Every deprecated REST route and parameter. */
export class DeprecationList {
  @ApiProperty({ type: [DeprecationModel] })
  deprecations!: DeprecationModel[];
}
