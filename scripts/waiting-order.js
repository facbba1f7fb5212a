/**
 * The list of scripts/waiting-suites.txt, read in one place: the test sequencer of the waiting lane
 * (scripts/jest-lanes.sh runs jest with `--testSequencer` set to this file), and, run as
 * `node scripts/waiting-order.js`, the paths one a line for the script.
 *
 * The lane runs its suites in the list's order, not jest's (largest file first without a cache,
 * slowest first with one): the order keeps the heavy fault tests' lock
 * (test/faults/support/heavy-lock.ts) from idling a worker of the other lane, whose crash loop
 * is one of its largest files and so starts within its first minutes. The uplink test, which takes
 * the same lock, is last in the list, long after.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const LIST = path.join(ROOT, 'scripts', 'waiting-suites.txt');

/** The listed suites, as paths from the repository's root, in order (comments and blank lines dropped). */
function waitingSuites() {
  return fs
    .readFileSync(LIST, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
}

class WaitingOrder {
  sort(tests) {
    const order = waitingSuites().map((f) => path.join(ROOT, f));
    const at = (t) => {
      const i = order.indexOf(t.path);
      return i < 0 ? order.length : i;
    };
    return [...tests].sort((a, b) => at(a) - at(b));
  }

  /** Jest calls it after the run to store durations for its own order, which this lane does not use. */
  cacheResults() {}
}

module.exports = WaitingOrder;
module.exports.waitingSuites = waitingSuites;

if (require.main === module)
  process.stdout.write(
    waitingSuites()
      .map((f) => `${f}\n`)
      .join(''),
  );
