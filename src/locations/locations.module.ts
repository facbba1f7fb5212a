import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { EngineModule } from '../engine/engine.module';
import { LocationBook } from './location-book';
import { LocationsController } from './locations.controller';
import { LocationsService } from './locations.service';

/** Probe locations: the owner's routes and the agents' (docs/agents.md). */
@Module({
  imports: [EngineModule, CatalogModule],
  controllers: [LocationsController],
  providers: [LocationBook, LocationsService],
  exports: [LocationBook],
})
export class LocationsModule {}
