import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AuthGuard } from './auth/sessions/auth.guard';
import { AuthModule } from './auth/auth.module';
import { CHECKER_ENV } from './probes/checkers/env';
import type { CheckerEnv } from './probes/checkers';
import { ENGINE_TIMERS } from './engine/engine.service';
import { realTimers, Timers } from './engine/scheduling/scheduler';
import { EngineStartReads, ENGINE_START_READS } from './engine/live/start-reads';
import { CLOCK, Clock } from './common/clock';
import { ErrorFilter } from './common/http/error.filter';
import { SECRET_BOX, SecretBox } from './db/secret-box';
import { IdempotencyInterceptor } from './common/http/idempotency';
import { BodyInterceptor } from './common/http/limits/body-parsing';
import { DtoValidationPipe } from './common/validation/validation';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { Database } from './db/database';
import { DbModule } from './db/db.module';
import { EventsModule } from './events/events.module';
import { CatalogModule } from './catalog/catalog.module';
import { EngineModule } from './engine/engine.module';
import { HistoryModule } from './history/history.module';
import { IncidentsModule } from './incidents/incidents.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { LocationsModule } from './locations/locations.module';
import { ChannelsModule } from './channels/channels.module';
import { MonitorsModule } from './monitors/monitors.module';
import { SettingsModule } from './settings/settings.module';
import { MailModule } from './mail/mail.module';
import { STARTED_AT } from './system/health.controller';
import { SystemModule } from './system/system.module';
import { DocsModule } from './system/docs.module';
import { OpenApiModule } from './openapi/openapi.module';
import { StatusModule } from './status/status.module';
import { StreamModule } from './stream/stream.module';
import { STREAM_OPTIONS, StreamOptions, streamOptions } from './stream/stream-options';
import { HostsModule } from './hosts/hosts.module';
import { HOSTS_OPTIONS, HOSTS_TIMERS, HostsOptions, hostsOptions } from './hosts/hosts-options';

export interface AppDeps {
  config: AppConfig;
  db: Database;
  clock: Clock;
  /** Seals monitor secrets in the database; opened at start by db/secret-key.ts. */
  secrets: SecretBox;
  /** Extra trusted CA certificates for checks (tests use their own CA). */
  ca?: string;
  /** The scheduler's timers; tests with a fake clock pass manualTimers and call tick(). */
  timers?: Timers;
  /** The engine's start reads, begun as soon as the database opened (engine/live/start-reads.ts). */
  engineReads?: EngineStartReads;
  /** The live stream's limits and periods (tests shorten the keep-alive); defaults otherwise. */
  stream?: Partial<StreamOptions>;
  /** Custom hosts' timings (tests shorten the ACME timeouts and polling); defaults otherwise. */
  hosts?: Partial<HostsOptions>;
}

@Module({})
export class AppModule {
  static forRoot(deps: AppDeps): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ConfigModule.forRoot(deps.config),
        DbModule.forRoot(deps.db),
        EventsModule,
        SettingsModule,
        MailModule,
        AuthModule,
        CatalogModule,
        HistoryModule,
        EngineModule,
        MonitorsModule,
        IncidentsModule,
        MaintenanceModule,
        LocationsModule,
        StreamModule,
        ChannelsModule,
        SystemModule,
        DocsModule,
        OpenApiModule,
        HostsModule,
        StatusModule,
        DashboardModule,
      ],
      providers: [
        { provide: CLOCK, useValue: deps.clock },
        { provide: SECRET_BOX, useValue: deps.secrets },
        { provide: STARTED_AT, useValue: deps.clock.now() },
        { provide: ENGINE_TIMERS, useValue: deps.timers ?? realTimers },
        { provide: ENGINE_START_READS, useValue: deps.engineReads ?? null },
        { provide: STREAM_OPTIONS, useValue: streamOptions(deps.stream) },
        { provide: HOSTS_OPTIONS, useValue: hostsOptions(deps.hosts) },
        { provide: HOSTS_TIMERS, useValue: deps.timers ?? realTimers },
        { provide: CHECKER_ENV, useValue: { clock: deps.clock, ca: deps.ca } satisfies CheckerEnv },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        // Bodies are read after the AuthGuard (an unauthenticated request is never buffered) and
        // before every other interceptor: interceptors run in the order they are listed here.
        { provide: APP_INTERCEPTOR, useClass: BodyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        { provide: APP_PIPE, useClass: DtoValidationPipe },
      ],
      exports: [
        CLOCK,
        SECRET_BOX,
        STARTED_AT,
        CHECKER_ENV,
        ENGINE_TIMERS,
        ENGINE_START_READS,
        STREAM_OPTIONS,
        HOSTS_OPTIONS,
        HOSTS_TIMERS,
      ],
    };
  }
}
