/** Runs one check of a monitor configuration now: builds the checker context from the monitor and the service settings. */
import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/http/api-error';
import type { MonitorConfig } from '../probes/monitor-config';
import { SettingsService } from '../settings/settings.service';
import type { Settings } from '../settings/settings-defaults';
import type { CheckResult } from '../probes/check-result';
import type { CheckerEnv } from '../probes/checkers';
import { checkOnce } from './check-once';
import { CHECKER_ENV } from '../probes/checkers/env';

export { CHECKER_ENV } from '../probes/checkers/env';

type ActiveConfig = Exclude<MonitorConfig, { kind: 'heartbeat' }>;

@Injectable()
export class CheckRunner {
  constructor(
    private readonly settings: SettingsService,
    @Inject(CHECKER_ENV) private readonly env: CheckerEnv,
  ) {}

  run(config: MonitorConfig): Promise<CheckResult> {
    if (config.kind === 'heartbeat') {
      return Promise.reject(
        ApiError.invalid([
          { field: 'kind', message: 'heartbeat monitors are not checked actively: they wait for pings' },
        ]),
      );
    }
    // The settings as last read when they are (every check but the first after a change): no wait.
    const settings = this.settings.peek();
    return settings ? this.start(config, settings) : this.settings.get().then((s) => this.start(config, s));
  }

  private start(config: ActiveConfig, { allow_private_targets }: Settings): Promise<CheckResult> {
    return checkOnce(config, allow_private_targets, this.env);
  }
}
