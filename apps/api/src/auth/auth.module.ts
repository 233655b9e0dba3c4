import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthService } from './auth.service.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';

@Global()
@Module({
  providers: [AuthService, { provide: APP_GUARD, useClass: BearerAuthGuard }],
  exports: [AuthService],
})
export class AuthModule {}
