import { Module } from '@nestjs/common';
import { HistoryController } from './history.controller.js';
import { HistoryResolver } from './history.resolver.js';
import { HistorySql } from './history-sql.js';
import { HistoryService } from './history.service.js';

@Module({
  controllers: [HistoryController],
  providers: [HistoryService, HistoryResolver, HistorySql],
  exports: [HistoryService],
})
export class HistoryModule {}
