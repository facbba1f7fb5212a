import { Module } from '@nestjs/common';
import { EngineModule } from '../engine/engine.module';
import { CatalogModule } from '../catalog/catalog.module';
import { ChannelsController } from './channels.controller';
import { ChannelsRepository } from './channels.repository';
import { ChannelsService } from './channels.service';
import { DeliveriesService } from './deliveries.service';
import { DispatcherService, MAIL_TRANSPORT } from './dispatcher.service';
import { createMailTransport } from './mail/mail-transport';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { CHECKER_ENV } from '../engine/check-runner';
import type { CheckerEnv } from '../probes/checkers/env';
import { OutboxService } from './outbox.service';

/** Alert channels, the outbox and its dispatcher, the delivery log (docs/alerts.md). */
@Module({
  imports: [EngineModule, CatalogModule],
  controllers: [ChannelsController],
  providers: [ChannelsRepository, ChannelsService, DeliveriesService, OutboxService, DispatcherService, {
      provide: MAIL_TRANSPORT,
      inject: [APP_CONFIG, CHECKER_ENV],
      useFactory: (config: AppConfig, env: CheckerEnv) => createMailTransport(config, { ca: typeof env.ca === 'string' ? env.ca : undefined }),
    }],
  exports: [ChannelsService],
})
export class ChannelsModule {}
