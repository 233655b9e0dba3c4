import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { PasskeysController } from './passkeys.controller.js';
import { PasskeysResolver } from './passkeys.resolver.js';
import { PasskeysService } from './passkeys.service.js';

@Module({
  imports: [RateLimitModule, SessionsModule],
  controllers: [PasskeysController],
  providers: [PasskeysService, PasskeysResolver],
  exports: [PasskeysService],
})
export class PasskeysModule {}
