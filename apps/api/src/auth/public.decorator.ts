import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'mizerka:public';
/** Marks a route or resolver field that needs no token (registration, health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * Public, and its Authorization header is not a player's token (e.g. /metrics checks its own):
 * the guard leaves it alone instead of trying to authenticate a player with it.
 */
export const OWN_BEARER = 'mizerka:own-bearer';
export const OwnBearer = () => SetMetadata(OWN_BEARER, true);
