/**
 * Loaded into the soak's service with
 * `node --expose-gc --require dist/tsc/test/faults/drivers/gc-probe.js` (test code: the service's
 * own code knows nothing of it). On SIGUSR2 it runs a full collection and prints what stayed
 * alive, one line (GC_PROBE_LINE in soak.ts reads it).
 *
 * Why not --trace-gc's Mark-Compact figures: V8's own full collections mark concurrently, and what
 * the program allocates while marking survives that collection, so "what survived" swung by 2 to
 * 5 MB between collections of the same service and drifted with the load, while heap snapshots
 * taken a few minutes apart (each after a forced full collection) agreed within 0.2 MB. A forced
 * collection stops the program while it marks: what it leaves is what is reachable.
 */
const collect = (globalThis as { gc?: () => void }).gc;
if (typeof collect !== 'function') throw new Error('gc-probe needs node --expose-gc');

process.on('SIGUSR2', () => {
  collect();
  const m = process.memoryUsage();
  process.stderr.write(`gc-probe: heap ${m.heapUsed} external ${m.external} rss ${m.rss}\n`);
});
