import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EngineModule } from '../engine/engine.module';
import { StatusModule } from '../status/status.module';
import { SubscribeController } from './subscribe.controller';
import { SubscribeService } from './subscribe.service';
import { SubscriberDispatcher } from './subscriber-dispatcher.service';
import { SubscriberNotices } from './subscriber-notices.service';
import { SubscribersController } from './subscribers.controller';
import { SubscribersService } from './subscribers.service';

/** Status page subscribers: subscribing, confirming, leaving, their mail and the owner's list (docs/subscribers.md). */
@Module({
  imports: [AuthModule, EngineModule, StatusModule],
  controllers: [SubscribeController, SubscribersController],
  providers: [SubscribeService, SubscriberDispatcher, SubscriberNotices, SubscribersService],
  exports: [SubscribersService, SubscriberDispatcher],
})
export class SubscribersModule {}
