import type { TokenScope } from '../../auth/scopes.js';
import { registerEnum } from '../../common/model-field.js';

export const TokenScopeEnum = { read: 'read', play: 'play', admin: 'admin' } as const satisfies Record<TokenScope, TokenScope>;

registerEnum(TokenScopeEnum, {
  name: 'TokenScope',
  description:
    'What an API token may do; each grants the ones before it. read: see games and lobbies, follow games; ' +
    'play: also move, resign, create, join and leave lobbies; admin: also create, list and revoke API tokens',
});
