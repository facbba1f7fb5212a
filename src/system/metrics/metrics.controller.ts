import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentCaller, Public } from '../../common/access/access';
import type { Caller } from '../../common/access/caller';
import { MetricsService } from './metrics.service';

/** GET /metrics (absolute): a `read` key or a session, or anyone while metrics_public is on (docs/metrics.md). */
@Public()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  get(@CurrentCaller() caller: Caller | null, @Res() res: Response): Promise<void> {
    return this.metrics.answer(caller, res);
  }
}
