import { Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentCaller, Scope, StepUp } from '../../common/access/access';
import type { Caller } from '../../common/access/caller';
import { StreamedBody } from '../../common/http/idempotency';
import { API_ROOT } from '../../common/http/routes';
import { KumaImportService } from './kuma-import.service';
import type { KumaReport } from './kuma-report';

/** POST /import/kuma: the body is the file itself (kuma.db or a Kuma JSON backup), not JSON. */
@Controller(API_ROOT)
export class KumaController {
  constructor(private readonly kuma: KumaImportService) {}

  /** A dry run unless `?apply=true`; the report says what was (or would be) done to each item. */
  @Post('import/kuma')
  @Scope('admin')
  @StepUp()
  @StreamedBody()
  @HttpCode(200)
  import(
    @Req() req: Request,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ): Promise<KumaReport> {
    return this.kuma.upload(req, query, caller);
  }
}
