import { Module } from '@nestjs/common';
import { EngineModule } from '../engine/engine.module';
import { CatalogModule } from '../catalog/catalog.module';
import { ChannelsController } from './channels.controller';
import { ChannelsRepository } from './channels.repository';
import { ChannelsService } from './channels.service';
import { DeliveriesService } from './deliveries.service';
import { DispatcherService } from './dispatcher.service';
import { OutboxService } from './outbox.service';

/** Alert channels, the outbox and its dispatcher, the delivery log (docs/alerts.md). */
@Module({
  imports: [EngineModule, CatalogModule],
  controllers: [ChannelsController],
  providers: [ChannelsRepository, ChannelsService, DeliveriesService, OutboxService, DispatcherService],
  exports: [ChannelsService, DispatcherService],
})
export class ChannelsModule {}
