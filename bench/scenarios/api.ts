/**
 * api: answer times of the read routes the dashboard and the status page use, on a service with
 * N http monitors that have been checked (so every monitor has state; stats come from whatever
 * the service keeps). Two passes per route: one client at a time (what one dashboard sees, judged
 * against the target) and `concurrency` clients over keep-alive connections (load). Routes that
 * answer 404 are not built yet and report n/a.
 *   GET /monitors lists at most 500 per page, so "list all" = page 1 + page 2 through next_cursor.
 */
import * as http from 'node:http';
import type { Options } from '../args';
import { Farm } from '../farm';
import { getTask, LoadResult, LoadTask, okCount, request, requestJson, runLoad } from '../http-client';
import { httpMonitors } from '../monitors';
import { removeDir, tempDir } from '../paths';
import { monotonicUs, ProfileWindow } from '../profile';
import { atMost, metric, Metric, ScenarioResult, Target } from '../report';
import { elapsedS, log, RunContext, Scenario, sleep } from '../scenario';
import { KeyPool, Service } from '../service';
import { profileDir, profileNotes } from '../service-profile';
import { spread } from '../stats';

const NAME = 'api';

interface Route {
  label: string;
  target?: Target;
  task: LoadTask;
}

export const apiScenario: Scenario = {
  name: NAME,
  summary: 'p50/p99 of GET /monitors, /monitors/{id}/series, /summary, /api/public/status, /status',
  options: ['monitors', 'requests', 'concurrency'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const n = o.number('monitors', ctx.smoke ? 20 : 1000);
    const requests = o.number('requests', ctx.smoke ? 10 : 200);
    const concurrency = Math.max(1, o.number('concurrency', 4));
    const notes: string[] = [];
    const farm = await Farm.start(n, 0);
    const dir = tempDir(NAME);
    const prof = profileDir(ctx, NAME);
    let window: ProfileWindow | undefined;
    let service: Service | null = null;
    try {
      // With --profile, the notes show where the service spent the first route's timed passes.
      service = await Service.start({ dataDir: dir, profileDir: prof });
      const svc = service;
      // A list is 2 requests; 6 routes, two passes: size the key pool for all of them in a minute.
      const keys = await svc.adminKeys(KeyPool.sizeFor(requests * 2 * 2 * 6 + 100));
      log(NAME, `creating ${n} http monitors and waiting for their first checks`);
      const createStarted = performance.now();
      await svc.createMonitors(keys, httpMonitors(n, farm, 60));
      log(NAME, `created in ${Math.round(performance.now() - createStarted)} ms`);
      await waitForStates(svc, keys, n, notes);
      log(NAME, `all checked after ${Math.round(performance.now() - createStarted)} ms`);
      const ids = await svc.monitorIds(keys);

      const api = `${svc.url}/api/v1`;
      const routes: Route[] = [
        { label: `GET /monitors, all ${n} (pages of 500)`, target: atMost(50), task: listAll(api, keys) },
        { label: 'GET /monitors?limit=50 (first page)', task: getTask(() => `${api}/monitors?limit=50`, () => keys.header()) },
        { label: 'GET /monitors/{id}/series?range=90d', task: getTask((i) => `${api}/monitors/${ids[i % ids.length]}/series?range=90d`, () => keys.header()) },
        { label: 'GET /summary', task: getTask(() => `${api}/summary`, () => keys.header()) },
        { label: 'GET /api/public/status', task: getTask(() => `${svc.url}/api/public/status`) },
        { label: 'GET /status (HTML)', target: atMost(20), task: getTask(() => `${svc.url}/status`) },
      ];
      const metrics: Metric[] = [];
      for (const route of routes) {
        const probe = await runLoad({ concurrency: 1, requests: 1, task: route.task });
        if (probe.statuses[404]) {
          metrics.push(metric(`${route.label} p50`, null, 'ms'), metric(`${route.label} p99`, null, 'ms', route.target));
          notes.push(`${route.label}: 404, not built yet`);
          continue;
        }
        if (okCount(probe) !== 1) throw new Error(`${route.label}: ${probe.firstError}`);
        const sample = await route.task(0, new http.Agent());
        const fromUs = monotonicUs();
        const one = await runLoad({ concurrency: 1, requests, task: route.task });
        const many = await runLoad({ concurrency, requests, task: route.task });
        window ??= { fromUs, toUs: monotonicUs() };
        check(route.label, one);
        check(route.label, many);
        const s1 = spread(one.latencies);
        const sc = spread(many.latencies);
        metrics.push(
          metric(`${route.label} p50`, s1.p50, 'ms'),
          metric(`${route.label} p99`, s1.p99, 'ms', route.target),
          metric(`${route.label} p99 with ${concurrency} clients`, sc.p99, 'ms'),
          metric(`${route.label} throughput with ${concurrency} clients`, (okCount(many) * 1000) / many.elapsedMs, 'req/s'),
          metric(`${route.label} answer size`, (sample.bytes ?? sample.body?.length ?? 0) / 1024, 'KB'),
        );
        log(NAME, `${route.label}: p50 ${s1.p50?.toFixed(1)} ms, p99 ${s1.p99?.toFixed(1)} ms`);
      }
      notes.push(`${n} http monitors checked once each; ${requests} requests one at a time, then ${requests} with ${concurrency} clients (keep-alive)`);
      await svc.stop();
      service = null;
      notes.push(...profileNotes(prof, window));
      return { scenario: NAME, options: { monitors: n, requests, concurrency }, metrics, notes, elapsedS: elapsedS(started) };
    } finally {
      if (service) await service.stop();
      await farm.stop();
      if (ctx.keep) log(NAME, `kept ${dir}`);
      else removeDir(dir);
    }
  },
};

/** Both pages of the full list, as a dashboard that shows every monitor loads it. */
function listAll(api: string, keys: KeyPool): LoadTask {
  return async (_i, agent) => {
    let ms = 0;
    let before: string | number | null = null;
    let status = 200;
    let body = '';
    let size = 0;
    do {
      const a = await request('GET', `${api}/monitors?limit=500${before === null ? '' : `&before=${before}`}`, { headers: keys.header(), agent });
      ms += a.ms;
      status = a.status;
      body = a.body;
      size += a.body.length;
      if (a.status !== 200) break;
      before = (JSON.parse(a.body) as { next_cursor: string | number | null }).next_cursor;
    } while (before !== null);
    return { status, ms, body, bytes: size };
  };
}

function check(label: string, r: LoadResult): void {
  const failed = Object.values(r.statuses).reduce((a, b) => a + b, 0) - okCount(r);
  if (failed > 0) throw new Error(`${label}: ${failed} requests failed, e.g. ${r.firstError}`);
}

/** Waits (bounded) until every monitor has had a check, so lists carry real state. */
async function waitForStates(service: Service, keys: KeyPool, n: number, notes: string[]): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const s = await requestJson<{ counts: Record<string, number> }>('GET', `${service.url}/api/v1/summary`, { headers: keys.header() });
    // A monitor that has not been checked yet is `unknown`.
    const checked = n - (s.counts.unknown ?? 0);
    if (checked >= n) return;
    if (performance.now() > deadline) {
      notes.push(`only ${checked} of ${n} monitors had a first check when measuring started`);
      return;
    }
    await sleep(500);
  }
}
