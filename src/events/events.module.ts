import { Global, Module } from '@nestjs/common';
import { EventBus } from './event-bus';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';

@Global()
@Module({ controllers: [EventsController], providers: [EventsService, EventBus], exports: [EventsService, EventBus] })
export class EventsModule {}
