import { Module } from '@nestjs/common';
import { BulkService } from './bulk.service';
import { LiveStates } from './live-states';
import { MONITOR_STATS_SOURCE, NO_HISTORY } from './monitor-stats';
import { MonitorsController } from './monitors.controller';
import { MonitorsRepository } from './monitors.repository';
import { MonitorsService } from './monitors.service';
import { SummaryController } from './summary.controller';
import { NO_ENGINE, SUMMARY_SOURCE, SummaryService } from './summary.service';

@Module({
  controllers: [MonitorsController, SummaryController],
  providers: [
    MonitorsRepository,
    MonitorsService,
    LiveStates,
    BulkService,
    SummaryService,
    { provide: MONITOR_STATS_SOURCE, useValue: NO_HISTORY },
    { provide: SUMMARY_SOURCE, useValue: NO_ENGINE },
  ],
  exports: [MonitorsRepository, MonitorsService, LiveStates],
})
export class MonitorsModule {}
