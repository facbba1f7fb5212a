/**
 * One check of a monitor, given everything it needs: the checker's context built from the
 * monitor's timeout and slow threshold and the private-targets rule. The service's CheckRunner and
 * the agent (src/agent/) both check through it, so a check from another place is the same check.
 * No Nest, no database.
 */
import type { CheckResult } from '../probes/check-result';
import { type ActiveKind, type CheckerEnv, runCheck } from '../probes/checkers';
import type { KindSettings } from '../probes/kinds';

/** What one check reads of a monitor: its kind and settings, its deadline and its slow threshold. */
export type CheckTarget = { [K in ActiveKind]: { kind: K; settings: KindSettings[K] } }[ActiveKind] & {
  timeout_ms: number;
  slow_ms: number | null;
};

export function checkOnce(target: CheckTarget, allowPrivateTargets: boolean, env: CheckerEnv): Promise<CheckResult> {
  return runCheck(
    target.kind,
    target.settings,
    { timeout_ms: target.timeout_ms, slow_ms: target.slow_ms, allow_private_targets: allowPrivateTargets },
    env,
  );
}
