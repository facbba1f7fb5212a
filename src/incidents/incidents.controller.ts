import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { CurrentCaller, Scope } from '../common/access/access';
import type { Caller } from '../common/access/caller';
import type { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import type { IncidentAnswer } from '../events/incident';
import { IncidentDetail, IncidentsService } from './incidents.service';

@Controller(`${API_ROOT}/incidents`)
export class IncidentsController {
  constructor(private readonly incidents: IncidentsService) {}

  @Get()
  @Scope('read')
  list(@Query() query: Record<string, unknown>): Promise<Page<IncidentAnswer>> {
    return this.incidents.list(query);
  }

  @Get(':id')
  @Scope('read')
  get(@Param('id') id: string): Promise<IncidentDetail> {
    return this.incidents.get(id);
  }

  @Patch(':id')
  @Scope('write')
  patch(
    @Param('id') id: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller | null,
  ): Promise<IncidentAnswer> {
    return this.incidents.patch(id, body, caller);
  }
}
