import { Controller, Get, Query } from '@nestjs/common';
import { Scope } from '../common/access/access';
import { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import { EventsService } from './events.service';
import type { TimelineItem } from './timeline';

@Controller(`${API_ROOT}/events`)
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @Scope('read')
  list(@Query() query: Record<string, unknown>): Promise<Page<TimelineItem>> {
    return this.events.list(query);
  }
}
