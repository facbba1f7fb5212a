/** Check results shaped like real ones, the same on every call (the writer and its ceiling get identical rows). */
import type { StoredCheck } from '../src/history/check-row';

/** Mostly good http checks with phases; one in 33 down with a message. */
export function makeChecks(rows: number, monitors: number): StoredCheck[] {
  const base = Date.UTC(2026, 0, 1);
  const out: StoredCheck[] = [];
  for (let i = 0; i < rows; i++) {
    const monitor = (i % monitors) + 1;
    const round = Math.floor(i / monitors);
    const at = base + round * 60_000 + ((monitor * 7919) % 60_000);
    const down = i % 33 === 7;
    out.push({
      monitor_id: monitor,
      at_ms: at,
      outcome: down ? 'down' : 'up',
      latency_ms: 1.5 + (i % 97) / 10,
      phases: { dns_ms: null, connect_ms: 0.3 + (i % 7) / 10, tls_ms: null, ttfb_ms: 1.1 + (i % 89) / 10 },
      status: down ? 503 : 200,
      error: down ? { code: 'status', message: 'expected status 200-399, got 503' } : null,
      cert: null,
      detail: null,
      note: null,
    });
  }
  return out;
}
