import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { AccountsController } from './accounts.controller.js';
import { AccountsResolver } from './accounts.resolver.js';
import { AccountsService } from './accounts.service.js';
import { Mailer } from './mailer.js';

@Module({
  imports: [RateLimitModule, SessionsModule],
  controllers: [AccountsController],
  providers: [AccountsService, AccountsResolver, Mailer],
  exports: [AccountsService, Mailer],
})
export class AccountsModule {}
