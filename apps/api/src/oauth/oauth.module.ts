import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthResolver } from './oauth.resolver.js';
import { OAuthService } from './oauth.service.js';

@Module({
  imports: [SessionsModule],
  controllers: [OAuthController],
  providers: [OAuthService, OAuthResolver],
})
export class OAuthModule {}
