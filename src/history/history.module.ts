import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { HistoryController } from './history.controller';
import { HistoryService } from './history.service';
import { RetentionService } from './retention.service';
import { RollupsService } from './rollups.service';
import { StatsService } from './stats.service';
import { LocationRollupsService } from './locations/location-rollups';
import { CheckWriter } from './writer';

/** What happened: check rows (one writer), rollups, retention, stats, series, uptime and GET /checks. */
@Module({
  imports: [CatalogModule],
  controllers: [HistoryController],
  providers: [CheckWriter, RollupsService, LocationRollupsService, RetentionService, StatsService, HistoryService],
  exports: [CheckWriter, RollupsService, LocationRollupsService, StatsService, HistoryService],
})
export class HistoryModule {}
