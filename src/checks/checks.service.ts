/** Check-now and test: run a check outside the schedule. */
import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { parseMonitorBody } from '../monitors/monitor-input';
import { MonitorsService } from '../monitors/monitors.service';
import { SettingsService } from '../system/settings.service';
import { CheckResultDto, toCheckResultDto } from './check-result';
import { CheckRunner } from './check-runner';
import { CheckWriter } from './writer';

@Injectable()
export class ChecksService {
  constructor(
    private readonly runner: CheckRunner,
    private readonly monitors: MonitorsService,
    private readonly settings: SettingsService,
    private readonly writer: CheckWriter,
  ) {}

  async testUnsaved(body: unknown): Promise<CheckResultDto> {
    const parsed = parseMonitorBody(body, (await this.settings.get()).defaults, null);
    if (!parsed.ok) throw ApiError.invalid(parsed.errors);
    return toCheckResultDto(await this.runner.run(parsed.config));
  }

  async checkNow(ref: string): Promise<CheckResultDto> {
    const monitor = await this.monitors.resolve(ref);
    const result = await this.runner.run(monitor.config);
    const at = this.writer.add({ ...result, monitor_id: monitor.id, note: null });
    return toCheckResultDto({ ...result, at_ms: at });
  }
}
