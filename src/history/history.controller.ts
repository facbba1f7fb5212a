import { Controller, Get, Query } from '@nestjs/common';
import { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import { HistoryItem, HistoryService } from './history.service';

/** GET /checks: every monitor's results, newest first. One monitor's are under /monitors/{id}/checks. */
@Controller(API_ROOT)
export class HistoryController {
  constructor(private readonly history: HistoryService) {}

  @Get('checks')
  all(@Query() query: Record<string, unknown>): Promise<Page<HistoryItem>> {
    return this.history.all(query);
  }
}
