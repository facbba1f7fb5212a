import { Module } from '@nestjs/common';
import { SubscribersModule } from '../subscribers/subscribers.module';
import { CatalogModule } from '../catalog/catalog.module';
import { ChannelsModule } from '../channels/channels.module';
import { EngineModule } from '../engine/engine.module';
import { HistoryModule } from '../history/history.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { StatusModule } from '../status/status.module';
import { DiagnosticsController } from './diagnostics.controller';
import { DiagnosticsService } from './diagnostics.service';
import { ExportController } from './export.controller';
import { ExportService } from './export.service';
import { HealthController } from './health.controller';
import { ImportService } from './import.service';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsService } from './metrics/metrics.service';
import { WatchdogService } from './watchdog/watchdog.service';
import { SettingsApiService } from './settings-api.service';
import { SettingsController } from './settings.controller';
import { KumaController } from './kuma/kuma.controller';
import { KumaImportService } from './kuma/kuma-import.service';

/** The service as a whole: health, settings, export and import (and the import from Uptime Kuma), diagnostics, metrics, the watchdog. */
@Module({
  imports: [
    CatalogModule,
    EngineModule,
    HistoryModule,
    MonitorsModule,
    ChannelsModule,
    StatusModule,
    SubscribersModule,
  ],
  controllers: [
    HealthController,
    SettingsController,
    ExportController,
    KumaController,
    DiagnosticsController,
    MetricsController,
  ],
  providers: [
    SettingsApiService,
    ExportService,
    ImportService,
    KumaImportService,
    DiagnosticsService,
    MetricsService,
    WatchdogService,
  ],
})
export class SystemModule {}
