/** A monitor's recorded history: its checks, chart series and uptime days. */
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import { HistoryItem, HistoryService } from '../history/history.service';
import { SeriesAnswer, StatsService, UptimeAnswer } from '../history/stats.service';

@Controller(`${API_ROOT}/monitors`)
export class MonitorHistoryController {
  constructor(
    private readonly history: HistoryService,
    private readonly stats: StatsService,
  ) {}

  @Get(':id/checks')
  checks(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<Page<HistoryItem>> {
    return this.history.forMonitor(id, query);
  }

  @Get(':id/series')
  series(
    @Param('id') id: string,
    @Query('range') range: unknown,
    @Query('location') location: unknown,
  ): Promise<SeriesAnswer> {
    return this.stats.series(id, range, location);
  }

  @Get(':id/uptime')
  uptime(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<UptimeAnswer> {
    return this.stats.uptime(id, query);
  }
}
