/**
 * `farsight agent`: checks the monitors of one location for a Farsight service on another box
 * (docs/agents.md). No Nest, no database, no listening socket: it connects out, learns its monitors
 * (config-poller.ts), checks them with the service's scheduler and checkers (agent-checks.ts),
 * judges its own uplink (uplink.ts), and sends results through its spool (shipper.ts, spool.ts).
 * A stop signal ends it cleanly: checks in flight finish, results reach the spool, what the service
 * still answers for is sent, exit 0.
 */
import { systemClock } from '../common/clock';
import { VERSION } from '../common/version';
import { StartupError } from '../config/startup-failures';
import { canarySet } from '../engine/blind/canary-set';
import { canaryKey } from '../engine/blind/canaries';
import { realTimers } from '../engine/scheduling/scheduler';
import type { AgentConfig } from './agent-config';
import { AgentChecks } from './agent-checks';
import type { AgentLog } from './agent-log';
import { ConfigPoller } from './config-poller';
import { ServerClient } from './server-client';
import { Shipper } from './shipper';
import { Spool } from './spool';
import { Uplink } from './uplink';

/** How long a stop waits for checks in flight, then for the last POST (systemd gives 30 s in all). */
const STOP_CHECKS_MS = 10_000;
const STOP_SEND_MS = 5_000;

export async function runAgent(config: AgentConfig, log: AgentLog, stopSignal: Promise<string>): Promise<number> {
  const clock = systemClock;
  const timers = realTimers;
  let spool: Spool;
  try {
    spool = Spool.open(
      config.spoolDir,
      { maxResults: config.spoolMaxResults, maxBytes: config.spoolMaxBytes },
      clock.now(),
    );
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new StartupError(
      `cannot use the spool directory ${config.spoolDir} (${code}): set FARSIGHT_AGENT_SPOOL_DIR to a directory this user may write`,
    );
  }
  const client = ServerClient.withCaFile({ server: config.server, token: config.token }, config.caFile);
  const canaries = canarySet(config);
  const uplink = new Uplink(canaries, clock, log);
  const shipper = new Shipper({
    spool,
    poster: { post: (body) => client.results(body) },
    clock,
    timers,
    log,
    version: VERSION,
    // Either side reaching the service again ends the other's backoff (up to a minute after a long cut).
    onReachable: () => poller.retryNow(),
  });
  // A failure waits for fresh canary answers before it is shipped: a stop waits for those too.
  const judging = new Set<Promise<void>>();
  const checks = new AgentChecks({
    clock,
    timers,
    env: { clock },
    log,
    onResult: (m, result) => {
      // Most results need no canary probe first: handed on at once, without a promise per check.
      const known = uplink.judgeAtOnce(result);
      if (known !== null) return shipper.add(m.id, result, known);
      const judged = uplink.judge(result).then(
        (blind) => shipper.add(m.id, result, blind),
        () => shipper.add(m.id, result, false),
      );
      judging.add(judged);
      void judged.finally(() => judging.delete(judged));
    },
  });
  const poller = new ConfigPoller({
    source: client,
    clock,
    timers,
    log,
    apply: (a) => checks.apply(a.monitors),
    onReachable: () => shipper.retryNow(),
  });

  // The timers above do not hold the process open (unref'd, as the service's): this does, until stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  log.info(
    `Farsight agent ${VERSION} for ${config.server}; spool ${config.spoolDir} (${spool.pending().length} results waiting, bound ${config.spoolMaxResults} results or ${config.spoolMaxBytes} bytes)`,
  );
  log.info(
    canaries.length
      ? `blind detection: canaries ${canaries.map(canaryKey).join(', ')}`
      : 'blind detection is off (FARSIGHT_CANARIES=off): failed checks count as Down votes even while this machine has lost its network',
  );
  void uplink.probe();
  poller.start();
  void shipper.kick();

  const signal = await stopSignal;
  log.info(`${signal} received, stopping: checks in flight finish, results are spooled and sent`);
  const stopping = poller.stop();
  await Promise.race([checks.stop().then(() => Promise.all(judging)), sleep(STOP_CHECKS_MS)]);
  await shipper.stop(STOP_SEND_MS);
  await spool.close();
  client.close();
  await stopping;
  clearInterval(keepAlive);
  const left = spool.pending().length;
  log.info(`stopped (${shipper.acked} results acknowledged since start; ${left} kept in the spool for the next start)`);
  return 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
