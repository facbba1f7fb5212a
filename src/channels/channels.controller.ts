import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CurrentCaller, Scope, StepUp } from '../common/access/access';
import type { Caller } from '../common/access/caller';
import type { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import { EmptyDto } from '../common/validation/validation';
import type { ChannelAnswer } from './channel-body';
import { ChannelsService } from './channels.service';
import { DeliveriesService, DeliveryAnswer } from './deliveries.service';
import type { TestAnswer } from './dispatcher.service';

@Controller(API_ROOT)
export class ChannelsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get('channels')
  @Scope('read')
  list(@Query() query: Record<string, unknown>): Promise<Page<ChannelAnswer>> {
    return this.channels.list(query);
  }

  @Get('channels/:id')
  @Scope('read')
  get(@Param('id') id: string): Promise<ChannelAnswer> {
    return this.channels.get(id);
  }

  @Post('channels')
  @Scope('admin')
  @StepUp()
  create(@Body() body: unknown, @CurrentCaller() caller: Caller): Promise<ChannelAnswer> {
    return this.channels.create(body, caller);
  }

  /** name, enabled, events: write; config: admin with a fresh sign-in (checked in the service). */
  @Patch('channels/:id')
  @Scope('write')
  patch(@Param('id') id: string, @Body() body: unknown, @CurrentCaller() caller: Caller): Promise<ChannelAnswer> {
    return this.channels.patch(id, body, caller);
  }

  @Delete('channels/:id')
  @Scope('admin')
  @StepUp()
  @HttpCode(200)
  async remove(@Param('id') id: string, @CurrentCaller() caller: Caller): Promise<{ ok: true }> {
    await this.channels.remove(id, caller);
    return { ok: true };
  }

  @Post('channels/:id/test')
  @Scope('write')
  @HttpCode(200)
  test(@Param('id') id: string, @Body() _: EmptyDto): Promise<TestAnswer> {
    return this.channels.test(id);
  }

  @Get('deliveries')
  @Scope('read')
  listDeliveries(@Query() query: Record<string, unknown>): Promise<Page<DeliveryAnswer>> {
    return this.deliveries.list(query);
  }
}
