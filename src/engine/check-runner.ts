/** Runs one check of a monitor configuration now: builds the checker context from the monitor and the service settings. */
import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import type { MonitorConfig } from '../probes/monitor-config';
import { SettingsService } from '../settings/settings.service';
import type { CheckResult } from '../probes/check-result';
import { CheckerEnv, runCheck } from '../probes/checkers';
import { CHECKER_ENV } from '../probes/checkers/env';

export { CHECKER_ENV } from '../probes/checkers/env';

@Injectable()
export class CheckRunner {
  constructor(
    private readonly settings: SettingsService,
    @Inject(CHECKER_ENV) private readonly env: CheckerEnv,
  ) {}

  async run(config: MonitorConfig): Promise<CheckResult> {
    if (config.kind === 'heartbeat') {
      throw ApiError.invalid([{ field: 'kind', message: 'heartbeat monitors are not checked actively: they wait for pings' }]);
    }
    const { allow_private_targets } = await this.settings.get();
    return runCheck(
      config.kind,
      config.settings,
      { timeout_ms: config.timeout_ms, slow_ms: config.slow_ms, allow_private_targets },
      this.env,
    );
  }
}
