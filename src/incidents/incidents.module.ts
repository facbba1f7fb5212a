import { Module } from '@nestjs/common';
import { EngineModule } from '../engine/engine.module';
import { HistoryModule } from '../history/history.module';
import { IncidentsController } from './incidents.controller';
import { IncidentsService } from './incidents.service';

/** GET /incidents, GET /incidents/{id}, PATCH /incidents/{id}. The engine opens and ends incidents. */
@Module({
  imports: [EngineModule, HistoryModule],
  controllers: [IncidentsController],
  providers: [IncidentsService],
})
export class IncidentsModule {}
