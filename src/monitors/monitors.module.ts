import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { EngineModule } from '../engine/engine.module';
import { HistoryModule } from '../history/history.module';
import { ChannelsModule } from '../channels/channels.module';
import { BulkService } from './bulk.service';
import { CheckNowService } from './check-now.service';
import { MonitorChecksController } from './monitor-checks.controller';
import { MonitorHistoryController } from './monitor-history.controller';
import { MonitorsController } from './monitors.controller';
import { MonitorsService } from './monitors.service';
import { MonitorListService } from './monitor-list.service';
import { SummaryController } from './summary.controller';
import { SummaryService } from './summary.service';
import { DependsOnService } from './depends-on/depends-on.service';

/** Monitors as the owner edits them, and every /monitors and /monitors/{id}/* route, plus /summary. */
@Module({
  imports: [CatalogModule, EngineModule, HistoryModule, ChannelsModule],
  controllers: [MonitorsController, MonitorChecksController, MonitorHistoryController, SummaryController],
  providers: [MonitorsService, MonitorListService, BulkService, CheckNowService, SummaryService, DependsOnService],
  exports: [MonitorsService, DependsOnService],
})
export class MonitorsModule {}
