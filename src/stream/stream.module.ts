import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EngineModule } from '../engine/engine.module';
import { StreamController } from './stream.controller';
import { StreamHub } from './stream.hub';

/** The live stream (GET /stream): one hub hears the bus and writes to every open stream. */
@Module({
  imports: [EngineModule, AuthModule],
  controllers: [StreamController],
  providers: [StreamHub],
  exports: [StreamHub],
})
export class StreamModule {}
