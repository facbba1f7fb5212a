import { checkRow } from '../check-row';
import { spanKind } from '../rollup-math';
import { NO_PHASES, type CheckResult } from '../../probes/check-result';
import { accountedRow, BLIND_NOTE } from './location-accounting';

const LATE = 'not counted: it arrived late (more than 2 intervals after the check)';

function row(outcome: CheckResult['outcome'], note: string | null, window: number | null = null) {
  const result: CheckResult = {
    at_ms: 1000,
    outcome,
    latency_ms: 20,
    phases: { ...NO_PHASES },
    status: null,
    error: outcome === 'down' ? { code: 'refused', message: 'said "n": no' } : null,
    cert: null,
    detail: null,
  };
  return checkRow(result, 7, note, window);
}

describe('accountedRow: what time an agent result gives', () => {
  it.each<[string, ReturnType<typeof row>, ReturnType<typeof spanKind>]>([
    ['a good result', row('up', null), 'up'],
    ['a failed result', row('down', null), 'down'],
    ['an unknown result', row('unknown', null), 'unknown'],
    ["a blind agent's failure (its uplink was down)", row('down', BLIND_NOTE), 'unknown'],
    ["a blind agent's good result", row('up', BLIND_NOTE), 'unknown'],
    ['a late failure (the outage seen from outside, sent after the cut)', row('down', LATE), 'down'],
    ['a late good result', row('slow', LATE), 'up'],
    ['a late result in a maintenance window', row('down', LATE, 3), 'maintenance'],
    ["a blind agent's result in a maintenance window", row('down', BLIND_NOTE, 3), 'maintenance'],
  ])('%s: %s time', (_, r, kind) => {
    expect(spanKind(accountedRow(r))).toBe(kind);
  });

  it('leaves a row without a note as it is (the same object: nothing parsed)', () => {
    const r = row('down', null);
    expect(accountedRow(r)).toBe(r);
  });

  it("keeps the rest of a late row's info: the window first, the message", () => {
    const r = accountedRow(row('down', LATE, 3));
    expect(r.info).toBe('{"w":3,"m":"said \\"n\\": no"}');
    expect(accountedRow(row('up', LATE)).info).toBeNull();
  });
});
