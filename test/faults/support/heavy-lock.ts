/**
 * The heavy fault tests (crash loops, the soak, the cut uplink) each load the machine on purpose
 * and measure timing; jest runs two test files at once, and would start the slowest ones together.
 * This lock (a file created exclusively, naming its owner's pid) makes them take turns; other
 * test files still run beside them. A lock whose owner is gone is taken over.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const LOCK = path.join(os.tmpdir(), 'farsight-heavy-tests.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function takeHeavyLock(timeoutMs = 30 * 60_000): Promise<() => void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      return () => {
        if (fs.readFileSync(LOCK, 'utf8') === String(process.pid)) fs.rmSync(LOCK, { force: true });
      };
    } catch {
      const owner = Number(fs.readFileSync(LOCK, { encoding: 'utf8', flag: 'a+' }) || 0);
      if (!owner || !alive(owner)) fs.rmSync(LOCK, { force: true });
      else if (Date.now() > end) throw new Error(`${LOCK} still held by pid ${owner}`);
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
}
