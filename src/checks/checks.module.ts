import { Module } from '@nestjs/common';
import { MonitorsModule } from '../monitors/monitors.module';
import { BlindGate } from './blind-gate';
import { CheckRunner } from './check-runner';
import { ChecksController } from './checks.controller';
import { ChecksService } from './checks.service';
import { EngineService } from './engine.service';
import { HeartbeatService } from './heartbeat.service';
import { HistoryController } from './history.controller';
import { HistoryService } from './history.service';
import { RetentionService } from './retention.service';
import { RollupsService } from './rollups.service';
import { SeriesController } from './series.controller';
import { StatsService } from './stats.service';
import { SummaryController } from './summary.controller';
import { SummaryService } from './summary.service';
import { CheckWriter } from './writer';

@Module({
  imports: [MonitorsModule],
  controllers: [ChecksController, SummaryController, HistoryController, SeriesController],
  providers: [CheckRunner, ChecksService, CheckWriter, EngineService, BlindGate, SummaryService, HeartbeatService, HistoryService, RollupsService, StatsService, RetentionService],
  exports: [CheckWriter, CheckRunner, EngineService, BlindGate, HeartbeatService],
})
export class ChecksModule {}
