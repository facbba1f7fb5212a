/**
 * How the long-running service asks V8 to size its heap (docs/performance.md, "Memory").
 *
 * By default V8 lets the old generation grow to about four times what survived the last full
 * collection before it collects again. The engine's steady garbage (each check's result and state
 * objects outlive a young-generation collection or two: they are kept until the monitor's next
 * check and the writer's next commit) then piles up between full collections: with 2,000 monitors
 * at 10 s the heap swung between 60 and 240 MB and RSS between 240 and 380 MB every 50 s, while
 * what was alive stayed at 59 MB. A growing factor of 1.3 collects when a third more than the
 * survivors is allocated: full collections every few seconds, 15-40 ms each (measured with
 * --trace-gc: about 1 % of a core), and a flat RSS (210-223 MB over the same soak).
 *
 * V8 also allocates straight into the old generation the objects of any allocation site whose
 * objects mostly survived a young-generation collection ("pretenuring"). Sites whose objects are
 * kept a little while (a status page build's model and the rollups it read, kept until the next
 * build) were pretenured, and what they made from then on went to the old generation though most
 * of it died within milliseconds: that set the pace of the full collections, one every 450 ms
 * while the status page was rebuilt after each change, where objects that die young cost nothing.
 * Without pretenuring: 4-5 full collections instead of 12 over the same bench run, the engine's
 * CPU per check within 3 % and its RSS no higher (docs/performance.md, "Sixteenth round").
 *
 * An operator's own --heap-growing-percent or --[no-]allocation-site-pretenuring (node's command
 * line or NODE_OPTIONS) wins.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

export const HEAP_GROWING_PERCENT = 30;
/** The growing factor's flag as tuneHeap sets it (collectOnceSoon is for it). */
export const GROWING_FLAG = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
/** How long after start-up the one full collection runs (see collectOnceSoon). */
export const COLLECT_AFTER_START_MS = 2_000;

/** The flags tuneHeap sets, each unless the operator set it (matched by `given`). */
const TUNING: readonly { given: RegExp; flag: string }[] = [
  { given: /--heap[-_]growing[-_]percent\b/, flag: GROWING_FLAG },
  { given: /--(?:no[-_])?allocation[-_]site[-_]pretenuring\b/, flag: '--no-allocation-site-pretenuring' },
];

/** Sets the long run's heap flags the operator did not set; returns those it set. */
export function tuneHeap(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): string[] {
  const set: string[] = [];
  for (const { given, flag } of TUNING) {
    if (execArgv.some((a) => given.test(a)) || given.test(nodeOptions)) continue;
    v8.setFlagsFromString(flag);
    set.push(flag);
  }
  return set;
}

/**
 * One full collection, soon. V8 sets the heap's next limit only when a full collection ends, so
 * once tuneHeap() has set the growing factor, the limit that start-up's collections set (under
 * the default factor: up to four times what survived) stays until the heap reaches it: RSS
 * climbed to 287 MB with 10,000 monitors, against 233 MB with this collection. It runs a little
 * after start-up (one pause of a few tens of ms, not in the way of the first answers) and once.
 */
export function collectOnceSoon(delayMs = COLLECT_AFTER_START_MS): void {
  setTimeout(() => {
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)();
  }, delayMs).unref();
}
