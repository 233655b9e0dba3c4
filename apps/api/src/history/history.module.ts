import { Module } from '@nestjs/common';
import { ExportPool, ExportService } from './history-export.js';
import { HistoryController } from './history.controller.js';
import { HistoryResolver } from './history.resolver.js';
import { HistoryService } from './history.service.js';
import { ImportReplayer } from './import-replayer.js';
import { StoredRecords } from './stored-records.js';

@Module({
  controllers: [HistoryController],
  providers: [HistoryService, ExportService, HistoryResolver, ExportPool, ImportReplayer, StoredRecords],
  exports: [HistoryService, StoredRecords],
})
export class HistoryModule {}
