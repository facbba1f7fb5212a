import { Module } from '@nestjs/common';
import { MonitorsModule } from '../monitors/monitors.module';
import { CheckRunner } from './check-runner';
import { ChecksController } from './checks.controller';
import { ChecksService } from './checks.service';
import { CheckWriter } from './writer';

@Module({
  imports: [MonitorsModule],
  controllers: [ChecksController],
  providers: [CheckRunner, ChecksService, CheckWriter],
  exports: [CheckWriter, CheckRunner],
})
export class ChecksModule {}
