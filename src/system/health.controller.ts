import { Controller, Get, Inject } from '@nestjs/common';
import { Public } from '../common/access/access';
import { CLOCK, Clock } from '../common/clock';
import { VERSION } from '../common/version';

export const STARTED_AT = Symbol('StartedAt');

@Public()
@Controller('api/health')
export class HealthController {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(STARTED_AT) private readonly startedAt: number,
  ) {}

  @Get()
  health(): { ok: true; version: string; uptime_s: number } {
    return { ok: true, version: VERSION, uptime_s: Math.floor((this.clock.now() - this.startedAt) / 1000) };
  }
}
