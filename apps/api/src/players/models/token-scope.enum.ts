import type { TokenScope } from '../../auth/scopes.js';
import { registerEnum } from '../../common/model-field.js';

export const TokenScopeEnum = { read: 'read', play: 'play', admin: 'admin', webhooks: 'webhooks' } as const satisfies Record<TokenScope, TokenScope>;

registerEnum(TokenScopeEnum, {
  name: 'TokenScope',
  description:
    'What an API token may do. read: see games and lobbies, follow games; webhooks: read, and manage webhook endpoints; ' +
    'play: also move, resign, create, join and leave lobbies (and webhooks); admin: also the account (API tokens, sessions, apps): everything',
});
