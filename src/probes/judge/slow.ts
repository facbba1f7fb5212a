import type { CheckResult } from '../check-result';

/** A good check slower than slow_ms is `slow` (strictly slower; null or 0 turns it off). */
export function applySlow(result: CheckResult, slowMs: number | null): CheckResult {
  if (result.outcome !== 'up' || !slowMs || result.latency_ms === null || result.latency_ms <= slowMs) {
    return result;
  }
  return { ...result, outcome: 'slow' };
}
