import { Module } from '@nestjs/common';
import { SessionsController } from './sessions.controller.js';
import { SessionsResolver } from './sessions.resolver.js';
import { SessionsService } from './sessions.service.js';

@Module({
  controllers: [SessionsController],
  providers: [SessionsService, SessionsResolver],
  exports: [SessionsService],
})
export class SessionsModule {}
