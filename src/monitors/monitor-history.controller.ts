/** A monitor's recorded history: its checks, chart series, uptime days and stats (each of them per location too). */
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import { HistoryItem, HistoryService } from '../history/history.service';
import { LocationStatsAnswer, SeriesAnswer, StatsService, UptimeAnswer } from '../history/stats.service';

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

  @Get(':id/stats')
  figures(@Param('id') id: string, @Query('location') location: unknown): Promise<LocationStatsAnswer> {
    return this.stats.stats(id, location);
  }

  @Get(':id/uptime')
  uptime(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<UptimeAnswer> {
    return this.stats.uptime(id, query);
  }
}
