import type { CheckResult, Outcome } from '../check-result';
import { NO_PHASES } from '../check-result';
import { applySlow } from './slow';

const result = (outcome: Outcome, latency_ms: number | null): CheckResult => ({
  at_ms: 0,
  outcome,
  latency_ms,
  phases: NO_PHASES,
  status: null,
  error: outcome === 'down' ? { code: 'timeout', message: 'x' } : null,
  cert: null,
  detail: null,
});

describe('applySlow', () => {
  it.each<[Outcome, number | null, number | null, Outcome]>([
    ['up', 501, 500, 'slow'],
    ['up', 500, 500, 'up'],
    ['up', 10, 500, 'up'],
    ['up', 5000, null, 'up'],
    ['up', 5000, 0, 'up'],
    ['up', null, 500, 'up'],
    ['down', 5000, 500, 'down'],
  ])('%s at %p ms with slow_ms %p is %s', (outcome, latency, slowMs, expected) => {
    expect(applySlow(result(outcome, latency), slowMs).outcome).toBe(expected);
  });
});
