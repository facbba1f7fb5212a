import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { HistoryModule } from '../history/history.module';
import { BlindGate } from './blind/blind-gate';
import { CheckRunner } from './check-runner';
import { EngineService } from './engine.service';
import { HeartbeatService } from './heartbeats/heartbeat.service';
import { LastAliveService } from './last-alive/last-alive.service';

/** What is happening now: the scheduler, the state machine, the blind gate, heartbeats; owns live state. */
@Module({
  imports: [CatalogModule, HistoryModule],
  providers: [CheckRunner, EngineService, BlindGate, HeartbeatService, LastAliveService],
  exports: [CheckRunner, EngineService, BlindGate, HeartbeatService, LastAliveService],
})
export class EngineModule {}
