import { Module } from '@nestjs/common';
import { BulkService } from './bulk.service';
import { LiveStates } from './live-states';
import { MONITOR_STATS_SOURCE, NO_HISTORY } from './monitor-stats';
import { MonitorsController } from './monitors.controller';
import { MonitorsRepository } from './monitors.repository';
import { MonitorsService } from './monitors.service';

@Module({
  controllers: [MonitorsController],
  providers: [
    MonitorsRepository,
    MonitorsService,
    BulkService,
    LiveStates,
    { provide: MONITOR_STATS_SOURCE, useValue: NO_HISTORY },
  ],
  exports: [MonitorsRepository, MonitorsService, LiveStates],
})
export class MonitorsModule {}
