import { Controller, Get, Param, Query } from '@nestjs/common';
import { Page } from '../common/paging';
import { API_ROOT } from '../common/routes';
import { HistoryItem, HistoryService } from './history.service';

@Controller(API_ROOT)
export class HistoryController {
  constructor(private readonly history: HistoryService) {}

  @Get('monitors/:id/checks')
  forMonitor(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<Page<HistoryItem>> {
    return this.history.forMonitor(id, query);
  }

  @Get('checks')
  all(@Query() query: Record<string, unknown>): Promise<Page<HistoryItem>> {
    return this.history.all(query);
  }
}
