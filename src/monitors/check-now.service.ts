/** Check-now and test: run a check outside the schedule. */
import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/http/api-error';
import { requireObjectBody } from '../common/validation/validation';
import { parseMonitorBody } from './monitor-input';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { SettingsService } from '../settings/settings.service';
import { CheckResultDto, toCheckResultDto } from '../probes/check-result';
import { CheckRunner } from '../engine/check-runner';
import { EngineService } from '../engine/engine.service';

@Injectable()
export class CheckNowService {
  constructor(
    private readonly runner: CheckRunner,
    private readonly monitors: MonitorsRepository,
    private readonly settings: SettingsService,
    private readonly engine: EngineService,
  ) {}

  async testUnsaved(body: unknown): Promise<CheckResultDto> {
    requireObjectBody(body);
    const parsed = parseMonitorBody(body, (await this.settings.get()).defaults, null);
    if (!parsed.ok) throw ApiError.invalid(parsed.errors);
    return toCheckResultDto(await this.runner.run(parsed.config));
  }

  async checkNow(ref: string): Promise<CheckResultDto> {
    const monitor = await this.monitors.resolve(ref);
    const result = await this.runner.run(monitor.config);
    // Fed to the state machine like a scheduled check.
    const at = this.engine.record(monitor.id, result, { kind: 'manual' });
    return toCheckResultDto({ ...result, at_ms: at });
  }
}
