import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Body } from '@nestjs/common';
import { CurrentCaller, Scope, StepUp } from '../common/access/access';
import type { Caller } from '../common/access/caller';
import type { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import type { ShownOnce } from '../common/secrets/shown-once';
import { EmptyDto } from '../common/validation/validation';
import { LocationAnswer, LocationsService } from './locations.service';

/** The owner's probe locations (extensions section 6, docs/agents.md). */
@Controller(`${API_ROOT}/locations`)
export class LocationsController {
  constructor(private readonly locations: LocationsService) {}

  @Get()
  @Scope('read')
  list(): Promise<Page<LocationAnswer>> {
    return this.locations.list();
  }

  /** Admin, with a fresh sign-in for a session, as POST /channels (docs/agents.md says why an admin key may). */
  @Post()
  @Scope('admin')
  @StepUp()
  create(
    @Body() body: unknown,
    @CurrentCaller() caller: Caller | null,
  ): Promise<LocationAnswer & { token: ShownOnce }> {
    return this.locations.create(body, caller);
  }

  @Patch(':id')
  @Scope('admin')
  rename(
    @Param('id') id: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller | null,
  ): Promise<LocationAnswer> {
    return this.locations.rename(id, body, caller);
  }

  @Delete(':id')
  @Scope('admin')
  @StepUp()
  @HttpCode(204)
  remove(@Param('id') id: string, @CurrentCaller() caller: Caller | null): Promise<void> {
    return this.locations.remove(id, caller);
  }

  @Post(':id/token')
  @Scope('admin')
  @StepUp()
  @HttpCode(200)
  rotate(
    @Param('id') id: string,
    @Body() _: EmptyDto,
    @CurrentCaller() caller: Caller | null,
  ): Promise<LocationAnswer & { token: ShownOnce }> {
    return this.locations.rotate(id, caller);
  }
}
