import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { EngineModule } from '../engine/engine.module';
import { HistoryModule } from '../history/history.module';
import { LocationBook } from './location-book';
import { LocationsController } from './locations.controller';
import { LocationsService } from './locations.service';
import { AgentController } from './agent/agent.controller';
import { AgentGuard } from './agent/agent-auth';
import { AgentService } from './agent/agent.service';

/** Probe locations: the owner's routes and the agents' (docs/agents.md). */
@Module({
  imports: [EngineModule, CatalogModule, HistoryModule],
  controllers: [LocationsController, AgentController],
  providers: [LocationBook, LocationsService, AgentService, AgentGuard],
  exports: [LocationBook],
})
export class LocationsModule {}
