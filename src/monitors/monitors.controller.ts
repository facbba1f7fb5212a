import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Caller } from '../common/access/caller';
import { CurrentCaller, Scope, StepUp } from '../common/access/access';
import { ApiError } from '../common/http/api-error';
import { CLOCK, Clock } from '../common/clock';
import { API_ROOT } from '../common/http/routes';
import { pickEncoding } from '../common/http/compression/accept-encoding';
import type { ShownOnce } from '../common/secrets/shown-once';
import { parseIso } from '../common/time';
import { BulkAnswer, BulkService } from './bulk.service';
import { EmptyDto } from '../common/validation/validation';
import { MuteDto } from './dto/mute.dto';
import { MonitorDto } from './monitor.mapper';
import { MonitorAnswer, MonitorsService } from './monitors.service';
import { sendListPage } from './list-cache';
import { MonitorListService } from './monitor-list.service';

/**
 * Monitor bodies are validated by the service (defaults from settings, merge for PATCH, the
 * secret keep-rule), so they arrive here as plain JSON.
 */
@Controller(`${API_ROOT}/monitors`)
export class MonitorsController {
  constructor(
    private readonly monitors: MonitorsService,
    private readonly listed: MonitorListService,
    private readonly bulkService: BulkService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    await sendListPage(
      res,
      pickEncoding(req.headers['accept-encoding']),
      req.method === 'HEAD',
      await this.listed.page(query),
    );
  }

  @Post()
  @Scope('write')
  create(@Body() body: unknown, @CurrentCaller() caller: Caller): Promise<MonitorAnswer> {
    return this.monitors.create(body, caller);
  }

  @Post('bulk')
  @Scope('write')
  @HttpCode(200)
  bulk(@Body() body: unknown, @CurrentCaller() caller: Caller): Promise<BulkAnswer> {
    return this.bulkService.apply(body, caller);
  }

  @Put('by-slug/:slug')
  @Scope('write')
  async putBySlug(
    @Param('slug') slug: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MonitorAnswer> {
    const { created, monitor } = await this.monitors.putBySlug(slug, body, caller);
    res.status(created ? 201 : 200);
    return monitor;
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<MonitorDto> {
    return this.monitors.get(id);
  }

  @Patch(':id')
  @Scope('write')
  patch(@Param('id') id: string, @Body() body: unknown, @CurrentCaller() caller: Caller): Promise<MonitorAnswer> {
    return this.monitors.patch(id, body, caller);
  }

  @Delete(':id')
  @Scope('write')
  @StepUp()
  @HttpCode(200)
  async remove(@Param('id') id: string, @CurrentCaller() caller: Caller): Promise<{ ok: true }> {
    await this.monitors.remove(id, caller);
    return { ok: true };
  }

  @Post(':id/pause')
  @Scope('write')
  @HttpCode(200)
  pause(@Param('id') id: string, @Body() _: EmptyDto, @CurrentCaller() caller: Caller): Promise<MonitorDto> {
    return this.monitors.setPaused(id, true, caller);
  }

  @Post(':id/resume')
  @Scope('write')
  @HttpCode(200)
  resume(@Param('id') id: string, @Body() _: EmptyDto, @CurrentCaller() caller: Caller): Promise<MonitorDto> {
    return this.monitors.setPaused(id, false, caller);
  }

  @Post(':id/mute')
  @Scope('write')
  @HttpCode(200)
  mute(@Param('id') id: string, @Body() dto: MuteDto, @CurrentCaller() caller: Caller): Promise<MonitorDto> {
    return this.monitors.setMutedUntil(id, muteUntil(dto, this.clock.now()), caller);
  }

  @Post(':id/unmute')
  @Scope('write')
  @HttpCode(200)
  unmute(@Param('id') id: string, @Body() _: EmptyDto, @CurrentCaller() caller: Caller): Promise<MonitorDto> {
    return this.monitors.setMutedUntil(id, null, caller);
  }

  @Post(':id/heartbeat-token')
  @Scope('write')
  @HttpCode(200)
  heartbeatToken(
    @Param('id') id: string,
    @Body() _: EmptyDto,
    @CurrentCaller() caller: Caller,
  ): Promise<{ heartbeat_url: ShownOnce }> {
    return this.monitors.newHeartbeatToken(id, caller);
  }
}

function muteUntil(dto: MuteDto, now: number): number {
  if ((dto.until === undefined) === (dto.minutes === undefined)) {
    throw ApiError.invalid([{ field: 'until', message: 'give either until (RFC 3339) or minutes, not both' }]);
  }
  if (dto.minutes !== undefined) return now + dto.minutes * 60_000;
  const until = parseIso(dto.until);
  if (until === null)
    throw ApiError.invalid([{ field: 'until', message: 'must be an RFC 3339 time such as 2026-12-01T08:00:00.000Z' }]);
  return until;
}
