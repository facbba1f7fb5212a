import { Controller, Get, Param, Query } from '@nestjs/common';
import { API_ROOT } from '../common/routes';
import { SeriesAnswer, StatsService, UptimeAnswer } from './stats.service';

@Controller(`${API_ROOT}/monitors`)
export class SeriesController {
  constructor(private readonly stats: StatsService) {}

  @Get(':id/series')
  series(@Param('id') id: string, @Query('range') range: unknown): Promise<SeriesAnswer> {
    return this.stats.series(id, range);
  }

  @Get(':id/uptime')
  uptime(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<UptimeAnswer> {
    return this.stats.uptime(id, query);
  }
}
