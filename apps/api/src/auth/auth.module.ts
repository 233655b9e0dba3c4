import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthService } from './auth.service.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { IdentityIssuers } from './identity-issuers.js';
import { LiveConnections } from './live-connections.js';
import { RevocationBus } from './revocation-bus.js';

@Global()
@Module({
  providers: [AuthService, IdentityIssuers, RevocationBus, LiveConnections, { provide: APP_GUARD, useClass: BearerAuthGuard }],
  exports: [AuthService, RevocationBus, LiveConnections],
})
export class AuthModule {}
