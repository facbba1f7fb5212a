import { Body, Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { CurrentCaller, Scope, StepUp } from '../common/access/access';
import type { Caller } from '../common/access/caller';
import { API_ROOT } from '../common/http/routes';
import type { ExportDocument } from './export-document';
import { ExportService } from './export.service';
import type { ImportAnswer } from './import-document';
import { ImportService } from './import.service';

@Controller(API_ROOT)
export class ExportController {
  constructor(
    private readonly exports: ExportService,
    private readonly imports: ImportService,
  ) {}

  /** Never kept by a browser or proxy cache: with ?secrets=1 it holds every credential. */
  @Get('export')
  @Scope('admin')
  @StepUp()
  @Header('Cache-Control', 'no-store')
  export(@Query() query: Record<string, unknown>, @CurrentCaller() caller: Caller): Promise<ExportDocument> {
    return this.exports.export(query, caller);
  }

  /** Answers 200 with what was (or, for a dry run, would be) done; `applied` says whether anything was written. */
  @Post('import')
  @Scope('admin')
  @StepUp()
  @HttpCode(200)
  import(@Body() body: unknown, @CurrentCaller() caller: Caller): Promise<ImportAnswer> {
    return this.imports.run(body, caller);
  }
}
