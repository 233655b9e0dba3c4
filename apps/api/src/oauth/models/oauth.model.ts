import { ID } from '@nestjs/graphql';
import type { TokenScope } from '../../auth/scopes.js';
import { Model, Prop } from '../../common/model-field.js';
import { TokenScopeEnum } from '../../players/models/token-scope.enum.js';

@Model({ description: 'A third-party app a player registered (an OAuth 2 public client: PKCE, no secret)' })
export class OAuthApp {
  @Prop({ description: 'The public identifier the app sends as client_id', example: 'mzc_…' })
  clientId!: string;

  @Prop({ description: 'Its name, shown to players on the consent page' })
  name!: string;

  @Prop(() => [String], { description: 'Where authorization answers may be sent (an exact match of one is required)' })
  redirectUris!: string[];

  @Prop()
  createdAt!: Date;
}

@Model({ description: 'An app as a player sees it on the consent page and in their authorized apps' })
export class OAuthClient {
  @Prop()
  clientId!: string;

  @Prop()
  name!: string;
}

@Model({ description: 'A scope and what it lets an app do, in words' })
export class ScopeDescription {
  @Prop(() => TokenScopeEnum, { enumRef: true })
  scope!: TokenScope;

  @Prop()
  description!: string;
}

@Model({ description: 'An app asking the signed-in player for access, waiting for their answer' })
export class OAuthAuthorizationRequest {
  @Prop(() => ID)
  id!: string;

  @Prop(() => OAuthClient)
  app!: OAuthClient;

  @Prop(() => [ScopeDescription], { description: 'What the app asks to do' })
  scopes!: ScopeDescription[];

  @Prop({ description: 'Where the answer goes' })
  redirectUri!: string;

  @Prop({ description: 'After this, the request is gone and the app must ask again' })
  expiresAt!: Date;
}

@Model({ description: "The player's answer to an app: the page to send the browser to (the app's redirect URI)" })
export class OAuthDecision {
  @Prop()
  redirectTo!: string;
}

@Model({ description: 'An app the caller has given access to, while a grant of it lasts' })
export class AuthorizedApp {
  @Prop(() => OAuthClient)
  app!: OAuthClient;

  @Prop(() => [TokenScopeEnum], { enumRef: true, description: 'What its tokens may do' })
  scopes!: TokenScope[];

  @Prop({ description: 'When the caller first authorized it (of the grants still live)' })
  authorizedAt!: Date;

  @Prop({ description: 'When the app last refreshed its tokens' })
  lastUsedAt!: Date;
}
