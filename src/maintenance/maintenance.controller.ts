import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CurrentCaller, Scope } from '../common/access/access';
import type { Caller } from '../common/access/caller';
import type { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import { EmptyDto } from '../common/validation/validation';
import { MaintenanceService } from './maintenance.service';
import type { WindowAnswer } from './window-answer';

@Controller(`${API_ROOT}/maintenance`)
export class MaintenanceController {
  constructor(private readonly windows: MaintenanceService) {}

  @Get()
  @Scope('read')
  list(@Query() query: Record<string, unknown>): Promise<Page<WindowAnswer>> {
    return this.windows.list(query);
  }

  @Post()
  @Scope('write')
  create(@Body() body: unknown, @CurrentCaller() caller: Caller | null): Promise<WindowAnswer> {
    return this.windows.create(body, caller);
  }

  @Post('preview')
  @Scope('read')
  @HttpCode(200)
  preview(@Body() body: unknown): { occurrences: { start: string; end: string }[] } {
    return this.windows.preview(body);
  }

  @Get(':id')
  @Scope('read')
  get(@Param('id') id: string): Promise<WindowAnswer> {
    return this.windows.get(id);
  }

  @Patch(':id')
  @Scope('write')
  patch(@Param('id') id: string, @Body() body: unknown, @CurrentCaller() caller: Caller | null): Promise<WindowAnswer> {
    return this.windows.patch(id, body, caller);
  }

  @Delete(':id')
  @Scope('write')
  @HttpCode(204)
  remove(@Param('id') id: string, @CurrentCaller() caller: Caller | null): Promise<void> {
    return this.windows.remove(id, caller);
  }

  @Post(':id/start')
  @Scope('write')
  @HttpCode(200)
  start(@Param('id') id: string, @Body() body: unknown, @CurrentCaller() caller: Caller | null): Promise<WindowAnswer> {
    return this.windows.start(id, body, caller);
  }

  @Post(':id/stop')
  @Scope('write')
  @HttpCode(200)
  stop(@Param('id') id: string, @Body() _: EmptyDto, @CurrentCaller() caller: Caller | null): Promise<WindowAnswer> {
    return this.windows.stop(id, caller);
  }
}
