/**
 * The floor under the engine's CPU per check, run in a process of its own:
 *   node dist/tsc/bench/http-floor.js --port P --endpoints N --rate R --duration S
 * does nothing but what an http check cannot avoid — one GET on a fresh loopback connection
 * (agent: false, like the checker), R times a second, each from a timer — and prints its own CPU
 * per request as {"requests", "cpuMs", "userMs", "sysMs"} (per request, from /proc/self/stat).
 */
import * as http from 'node:http';
import { Options, parseArgs } from '../harness/args';
import { cpuTimes } from '../harness/proc';

function get(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const o = new Options(parseArgs(process.argv.slice(2)).options);
  const port = o.number('port', 0);
  const endpoints = Math.max(1, o.number('endpoints', 1000));
  const rate = Math.max(1, o.number('rate', 167));
  const durationMs = o.number('duration', 20) * 1000;
  // Warm the JIT first, so the figure is the steady state.
  for (let i = 0; i < 500; i++) await get(port, `/e/${i % endpoints}`);
  const before = cpuTimes(process.pid);
  const started = performance.now();
  let sent = 0;
  const pending = new Set<Promise<void>>();
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.floor(((performance.now() - started) * rate) / 1000);
      while (sent < due) {
        const p = get(port, `/e/${sent % endpoints}`).finally(() => pending.delete(p));
        pending.add(p);
        sent += 1;
      }
      if (performance.now() - started >= durationMs) resolve();
      else setTimeout(tick, Math.max(1, 1000 / rate));
    };
    tick();
  });
  await Promise.all(pending);
  const after = cpuTimes(process.pid);
  const userMs = (after.userMs - before.userMs) / sent;
  const sysMs = (after.sysMs - before.sysMs) / sent;
  process.stdout.write(`${JSON.stringify({ requests: sent, cpuMs: userMs + sysMs, userMs, sysMs })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`http-floor: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
