import { Body, Controller, Get, Patch } from '@nestjs/common';
import { CurrentCaller, Scope, StepUp } from '../common/access/access';
import type { Caller } from '../common/access/caller';
import { API_ROOT } from '../common/http/routes';
import { SettingsAnswer, SettingsApiService } from './settings-api.service';

@Controller(`${API_ROOT}/settings`)
export class SettingsController {
  constructor(private readonly settings: SettingsApiService) {}

  @Get()
  @Scope('read')
  get(): Promise<SettingsAnswer> {
    return this.settings.get();
  }

  /** Admin with a fresh sign-in; `allow_private_targets` only by the owner's session (checked in the service). */
  @Patch()
  @Scope('admin')
  @StepUp()
  patch(@Body() body: unknown, @CurrentCaller() caller: Caller): Promise<SettingsAnswer> {
    return this.settings.patch(body, caller);
  }
}
