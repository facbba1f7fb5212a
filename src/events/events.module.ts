import { Global, Module } from '@nestjs/common';
import { EventBus } from './event-bus';
import { EventsService } from './events.service';

@Global()
@Module({ providers: [EventsService, EventBus], exports: [EventsService, EventBus] })
export class EventsModule {}
