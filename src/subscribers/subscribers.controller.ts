import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { CurrentCaller, Scope } from '../common/access/access';
import { actorName, Caller } from '../common/access/caller';
import type { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import { SubscriberAnswer, SubscribersService } from './subscribers.service';

/** The owner's list of status page subscribers (admin: addresses are personal data). */
@Controller(`${API_ROOT}/subscribers`)
export class SubscribersController {
  constructor(private readonly subscribers: SubscribersService) {}

  @Get()
  @Scope('admin')
  list(@Query() query: Record<string, unknown>): Promise<Page<SubscriberAnswer>> {
    return this.subscribers.list(query);
  }

  @Delete(':id')
  @Scope('admin')
  @HttpCode(204)
  remove(@Param('id') id: string, @CurrentCaller() caller: Caller | null): Promise<void> {
    return this.subscribers.remove(id, actorName(caller));
  }
}
