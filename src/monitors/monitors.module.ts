import { Module } from '@nestjs/common';
import { BulkService } from './bulk.service';
import { LiveStates } from './live-states';
import { MonitorStatsRegistry } from './monitor-stats';
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
    MonitorStatsRegistry,
  ],
  exports: [MonitorsRepository, MonitorsService, LiveStates, MonitorStatsRegistry],
})
export class MonitorsModule {}
