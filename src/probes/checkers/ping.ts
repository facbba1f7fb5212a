/**
 * ping checks with the system's iputils `ping`. We resolve the name ourselves first, so the
 * private-target rule applies to the address actually pinged. latency_ms is the average round
 * trip (0.1 ms), not the time the check took; null when no reply came back.
 */
import { execFile } from 'node:child_process';
import { isIP } from 'node:net';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, PingSettings } from '../kinds';
import { judgePing, parsePingSummary, pingLatency, PingSummary } from '../judge/ping-summary';
import { Deadline, lapTimer, withDeadline } from './deadline';
import type { CheckerEnv } from './env';
import { describeSocketError } from './net-errors';
import { emptyPhases, failure, judged } from './result-builders';
import { resolveTarget } from './connect-address';

const INTERVAL_MS = 200;
// Time for ping to start and print its summary, kept out of the reply wait.
const SPAWN_MARGIN_MS = 100;
const MIN_WAIT_S = 0.1;

type PingRun = { summary: PingSummary } | { error: CheckError };

export async function checkPing(settings: PingSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const phases = emptyPhases();
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const lap = lapTimer();
      let address: string;
      try {
        address = await resolveTarget(settings.host, settings.ip_version, ctx.allow_private_targets);
      } catch (err) {
        return judged(atMs, { latency_ms: null }, describeSocketError(err, settings.host));
      }
      if (!isIP(settings.host)) phases.dns_ms = lap();
      const waitS = replyWaitSeconds(ctx.timeout_ms - (performance.now() - start), settings.packets);
      const run = await runPing(address, settings.packets, waitS, deadline);
      if ('error' in run) return judged(atMs, { latency_ms: null, phases }, run.error);
      const { summary } = run;
      const detail = describeSummary(summary);
      return judged(
        atMs,
        { latency_ms: pingLatency(summary), phases, detail },
        judgePing(summary, settings.max_loss_pct),
      );
    },
    () =>
      judged(atMs, { latency_ms: null, phases }, failure('timeout', `ping did not finish within ${ctx.timeout_ms} ms`)),
  );
}

/** How long ping waits for the last reply, so that it finishes before the deadline. */
function replyWaitSeconds(remainingMs: number, packets: number): string {
  const budget = remainingMs - (packets - 1) * INTERVAL_MS - SPAWN_MARGIN_MS;
  return Math.max(MIN_WAIT_S, budget / 1000).toFixed(1);
}

function runPing(address: string, packets: number, waitS: string, deadline: Deadline): Promise<PingRun> {
  const abort = new AbortController();
  deadline.onExpire(() => abort.abort());
  const args = [
    '-n',
    '-c',
    String(packets),
    '-W',
    waitS,
    '-i',
    String(INTERVAL_MS / 1000),
    `-${isIP(address)}`,
    address,
  ];
  return new Promise((resolve) => {
    // env is passed explicitly so the PATH we see is the one used: jest's sandbox has its own
    // copy of process.env, and the stand-in ping of the tests is found through it.
    execFile('ping', args, { signal: abort.signal, killSignal: 'SIGKILL', env: process.env }, (err, stdout, stderr) => {
      // ping exits 1 when replies are missing: the summary, not the exit code, tells what happened.
      const summary = parsePingSummary(stdout);
      if (summary) return resolve({ summary });
      const code = (err as { code?: unknown } | null)?.code;
      if (code === 'ENOENT') {
        return resolve({ error: failure('protocol', 'ping is not installed on this machine (package iputils-ping)') });
      }
      const reason = stderr.trim().split('\n')[0] || `exit code ${String(code ?? 'unknown')}`;
      resolve({ error: failure('protocol', `ping could not run: ${reason}`) });
    });
  });
}

function describeSummary(summary: PingSummary): string {
  const head = `${summary.received}/${summary.transmitted} replies, ${summary.loss_pct}% loss`;
  if (!summary.rtt) return head;
  const { min, avg, max } = summary.rtt;
  return `${head}, rtt min/avg/max ${min}/${avg}/${max} ms`;
}
