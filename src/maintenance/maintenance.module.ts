import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { EngineModule } from '../engine/engine.module';
import { MaintenanceController } from './maintenance.controller';
import { MaintenanceService } from './maintenance.service';

/** The /maintenance routes (docs/maintenance.md); the engine holds the windows' timeline. */
@Module({
  imports: [EngineModule, CatalogModule],
  controllers: [MaintenanceController],
  providers: [MaintenanceService],
})
export class MaintenanceModule {}
