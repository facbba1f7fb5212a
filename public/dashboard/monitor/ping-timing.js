// A heartbeat monitor's recent results as a list of pings (docs/dashboard.md, "Heartbeat
// monitors' recent pings"): what each one is (a ping, a missed deadline, a failure the job
// reported, a result not counted) and whether a ping came on time against the window (the
// interval and its grace) measured from the ping before it, as the engine measures its deadline
// (from the last ping; a failure report does not count as one). Pure.

/** 'ping', 'missed' (the deadline passed: the service's own result), 'failed' (POST /hb/<token>/fail) or 'unknown'. */
export function pingKind(c) {
  if (c.outcome === 'up') return 'ping';
  if (c.outcome !== 'down') return 'unknown';
  // Both down results carry the code `heartbeat`; the job's own report says so in its message
  // (src/engine/heartbeats/heartbeat.service.ts), the missed deadline says "no ping within …".
  return c.error && /^failure reported/.test(c.error.message) ? 'failed' : 'missed';
}

/**
 * Each of `items` (newest first, as GET /monitors/{id}/checks answers) with its kind and, for a
 * ping, `gapMs` since the ping before it and `lateMs` past that ping's deadline (0: on time);
 * both null when the ping before is not among the items (the oldest ping shown, or a filter
 * that leaves pings out).
 */
export function pingTimings(items, intervalS, graceS) {
  const windowMs = (intervalS + graceS) * 1000;
  const out = items.map((c) => ({ kind: pingKind(c), gapMs: null, lateMs: null }));
  let newer = null; // the index of the newest ping not yet given its gap
  for (let i = 0; i < items.length; i++) {
    if (out[i].kind !== 'ping') continue;
    if (newer !== null) {
      const gap = items[newer].at_ms - items[i].at_ms;
      out[newer].gapMs = gap;
      out[newer].lateMs = Math.max(0, gap - windowMs);
    }
    newer = i;
  }
  return out;
}
