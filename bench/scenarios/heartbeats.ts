/**
 * heartbeats: sustained pings per second into GET /hb/{token} across N heartbeat monitors, with
 * `concurrency` keep-alive clients for a set duration, round-robin over the tokens (so no token
 * nears its 600-a-minute limit). The clients are raw sockets (raw-load.ts): node:http's client
 * took 70-77 % of a core from the service on this 2-core machine; `--client http` uses it anyway.
 * Every token is pinged once before timing (the service caches the token → monitor lookup; a cold
 * cache is one query per token, once). Also the service's CPU per ping, and after a graceful stop
 * the stored rows against the pings answered OK.
 */
import type { Options } from '../../harness/args';
import { measureDb } from '../db';
import { getTask, LoadResult, okCount, requestJson, runLoad } from '../../harness/http-client';
import { heartbeatMonitors } from '../monitors';
import { runRawGetLoad } from '../raw-load';
import { removeDir, tempDir } from '../../harness/paths';
import { CpuWindow } from '../../harness/proc';
import { monotonicUs } from '../profile';
import { atLeast, atMost, metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario } from '../scenario';
import { KeyPool, Service } from '../../harness/service';
import { profileDir, profileNotes } from '../service-profile';
import { spread } from '../../harness/stats';

const NAME = 'heartbeats';

export const heartbeatsScenario: Scenario = {
  name: NAME,
  summary: 'sustained pings/s into /hb/{token} across N heartbeat monitors, p99 answer time',
  options: ['monitors', 'duration', 'concurrency', 'client'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const n = o.number('monitors', ctx.smoke ? 10 : 1000);
    const durationS = o.number('duration', ctx.smoke ? 2 : 10);
    const concurrency = Math.max(1, o.number('concurrency', 16));
    const client = o.string('client', 'raw');
    if (client !== 'raw' && client !== 'http') throw new Error('--client is raw or http');
    const dir = tempDir(NAME);
    const prof = profileDir(ctx, NAME);
    let service: Service | null = null;
    try {
      service = await Service.start({ dataDir: dir, profileDir: prof });
      const svc = service;
      const keys = await svc.adminKeys(KeyPool.sizeFor(n + 20));
      log(NAME, `creating ${n} heartbeat monitors and their ping URLs`);
      await svc.createMonitors(keys, heartbeatMonitors(n));
      const ids = await svc.monitorIds(keys, 'heartbeat');
      const urls: string[] = [];
      for (const id of ids) {
        const a = await requestJson<{ heartbeat_url: string }>(
          'POST',
          `${svc.url}/api/v1/monitors/${id}/heartbeat-token`,
          { headers: keys.header(), body: {} },
        );
        urls.push(a.heartbeat_url);
      }
      const ping = getTask((i) => urls[i % urls.length]);
      const warm = await runLoad({ concurrency, requests: urls.length, task: ping });
      if (okCount(warm) !== urls.length) throw new Error(`warm-up pings failed: ${warm.firstError}`);

      log(NAME, `pinging for ${durationS} s with ${concurrency} clients`);
      const cpu = new CpuWindow(svc.pid);
      const harness = new CpuWindow(process.pid);
      const fromUs = monotonicUs();
      const { hostname, port } = new URL(svc.url);
      const paths = urls.map((u) => new URL(u).pathname);
      const load: LoadResult =
        client === 'raw'
          ? await runRawGetLoad({
              host: hostname,
              port: Number(port),
              path: (i) => paths[i % paths.length],
              concurrency,
              durationMs: durationS * 1000,
            })
          : await runLoad({ concurrency, durationMs: durationS * 1000, task: ping });
      const used = cpu.read();
      const harnessUsed = harness.read();
      const toUs = monotonicUs();
      await svc.stop();
      service = null;
      // Every ping answered OK is one row; nothing else writes rows here (no deadline passes this soon).
      const stored = (await measureDb(`${dir}/farsight.db`)).rows;

      const ok = okCount(load);
      const s = spread(load.latencies);
      const failed = Object.values(load.statuses).reduce((a, b) => a + b, 0) - ok;
      const notes = [
        `${n} tokens, ${concurrency} keep-alive ${client === 'raw' ? 'raw-socket' : 'node:http'} clients in the harness process, ${Math.round(load.elapsedMs / 1000)} s; answers by status: ${JSON.stringify(load.statuses)}`,
        `stored ${stored} rows for ${ok + urls.length} pings answered OK, warm-up included (a ping is a check row)`,
        `the load generator (this process) used ${Math.round(harnessUsed.pctOfCore)} % of a core meanwhile: on 2 cores, service and client compete`,
        ...profileNotes(prof, { fromUs, toUs }),
      ];
      if (failed > 0) notes.push(`${failed} pings failed, e.g. ${load.firstError}`);
      return {
        scenario: NAME,
        options: { monitors: n, duration: durationS, concurrency, client },
        metrics: [
          metric('pings answered OK', (ok * 1000) / load.elapsedMs, '/s', atLeast(5000)),
          metric('answer time p50', s.p50, 'ms'),
          metric('answer time p99', s.p99, 'ms'),
          metric('failed pings', failed, '', atMost(0)),
          metric('CPU of the service', used.pctOfCore, '% of a core'),
          metric('CPU per ping', ok > 0 ? used.cpuMs / ok : null, 'ms'),
          metric('  on the main thread', ok > 0 ? used.mainMs / ok : null, 'ms'),
          metric('main thread busy', (100 * used.mainMs) / used.wallMs, '%'),
          metric('pings not stored', Math.max(0, ok + urls.length - stored), '', atMost(0)),
          metric('load generator CPU', harnessUsed.pctOfCore, '% of a core'),
        ],
        notes,
        elapsedS: elapsedS(started),
      };
    } finally {
      if (service) await service.stop();
      if (ctx.keep) log(NAME, `kept ${dir}`);
      else removeDir(dir);
    }
  },
};
