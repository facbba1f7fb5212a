/**
 * dashboard: the owner's overview with N monitors (1,000 by default) in Debian's Chromium, driven by
 * playwright-core against the built service (`node dist/main.js serve`).
 *   A. page weight: the overview's HTML and every stylesheet and module it loads (followed through
 *      their imports), as sent with `Accept-Encoding: br, gzip`: target under 200 KB;
 *   B. time to interactive of the overview, `runs` times, Lighthouse's rule with a 500 ms window:
 *      from navigation start to a screenful of rows painted, or to the end of the last long task
 *      or long animation frame (over 50 ms, rendering included) before the first 500 ms without
 *      any, whichever is later; read from the browser's performance timeline, for a first visit
 *      (a new browser context: nothing cached, no service worker) and a return visit (the same
 *      context again): target under 1 s, the median of each. Also reported: when all the rows
 *      were painted;
 *   C. frames while `rate` stream events a second are applied: heartbeat pings at that rate over
 *      `rate` monitors (each ping is a `check` event on the stream the page reads) for `duration`
 *      seconds, frames counted with requestAnimationFrame in the page: the frame rate, the worst
 *      one-second window and the longest frame; target at least 30 fps in the worst second. The
 *      page must also have applied the events (every pinged row shows Up at the end).
 * Standalone: `node dist/tsc/bench/dashboard.js [--monitors N] [--runs N] [--rate N] [--duration S]
 * [--smoke]` after `npm run build`; it also exports `dashboardScenario` for the bench's registry.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { authenticator } from 'otplib';
import { chromium } from 'playwright-core';
import { Options, parseArgs } from '../harness/args';
import { keepAliveAgent, request, requestJson } from '../harness/http-client';
import { heartbeatMonitors } from './monitors';
import { removeDir, SERVICE_ENTRY, tempDir } from '../harness/paths';
import { DEFAULT_RESULTS_DIR } from './paths';
import { atLeast, atMost, metric, printTable, runInfo, ScenarioResult, writeJson } from './report';
import { elapsedS, log, RunContext, Scenario, sleep } from './scenario';
import { KeyPool, OWNER, Service } from '../harness/service';

const NAME = 'dashboard';
const CHROMIUM =
  process.env.FARSIGHT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const GROUPS = ['Home', 'Media', 'Network', 'Office', 'Cloud', 'Lab', 'Backups', 'Family', 'Garden', 'Garage'];

/** First-run setup over HTTP, as the owner does it: the session cookie's value, and admin keys. */
async function ownerSession(svc: Service, keyCount: number): Promise<{ cookie: string; keys: KeyPool }> {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FARSIGHT_DATA_DIR: svc.dataDir,
    FARSIGHT_PUBLIC_URL: svc.url,
  };
  const link = spawnSync(process.execPath, [SERVICE_ENTRY, 'setup-link'], { env, encoding: 'utf8', timeout: 30_000 });
  if (link.status !== 0) throw new Error(`setup-link failed: ${link.stderr}`);
  const token = link.stdout.trim().split('/').pop() as string;
  const info = await requestJson<{ totp: { secret: string } }>('GET', `${svc.url}/api/v1/auth/setup/${token}`);
  const setup = await request('POST', `${svc.url}/api/v1/auth/setup/${token}`, {
    headers: { Origin: svc.url },
    body: { ...OWNER, code: authenticator.generate(info.totp.secret) },
  });
  const cookie = (setup.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('service_session='));
  if (setup.status !== 200 || !cookie)
    throw new Error(`setup failed: HTTP ${setup.status} ${setup.body.slice(0, 300)}`);
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i++) {
    keys.push(
      (
        await requestJson<{ key: string }>('POST', `${svc.url}/api/v1/keys`, {
          headers: { Cookie: cookie, Origin: svc.url },
          body: { name: `bench ${i + 1}`, scope: 'admin' },
        })
      ).key,
    );
  }
  return { cookie: cookie.slice('service_session='.length), keys: new KeyPool(keys) };
}

/** A. What the overview costs to load, compressed as a browser asks for it. */
async function pageWeight(url: string, cookie: string): Promise<{ bytes: number; files: number }> {
  const headers = { Cookie: `service_session=${cookie}`, 'Accept-Encoding': 'br, gzip' };
  const size = (a: { headers: Record<string, unknown>; body: string }) =>
    Number(a.headers['content-length'] ?? Buffer.byteLength(a.body));
  // Each file twice: compressed for its size, plain to read its links and imports.
  const sent = await request('GET', `${url}/`, { headers });
  const page = await request('GET', `${url}/`, { headers: { Cookie: headers.Cookie } });
  if (sent.status !== 200 || page.status !== 200) throw new Error(`GET /: HTTP ${sent.status}`);
  let bytes = size(sent);
  const seen = new Set<string>();
  const queue = [...page.body.matchAll(/(?:href|src)="(\/(?:dashboard|auth)\/assets\/[^"]+\.(?:css|js)[^"]*)"/g)].map(
    (m) => m[1].replace(/&amp;/g, '&'),
  );
  while (queue.length) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    // The body decoded as text is only read for imports; the size is what was sent.
    const a = await request('GET', `${url}${path}`, { headers });
    if (a.status !== 200) throw new Error(`GET ${path}: HTTP ${a.status}`);
    bytes += size(a);
    const plain = await request('GET', `${url}${path}`, { headers: { Cookie: headers.Cookie } });
    for (const m of plain.body.matchAll(/(?:from|import)\s*\(?\s*'([^']+\.js[^']*)'/g)) {
      queue.push(new URL(m[1], `${url}${path}`).pathname + new URL(m[1], `${url}${path}`).search);
    }
  }
  return { bytes, files: seen.size + 1 };
}

/** Rows that fill the bench's 1280×900 window about twice over (a row is 62 px tall). */
const SCREEN_ROWS = 30;

/**
 * Evaluated in every document before the page's own scripts (so outside its content policy):
 * records long tasks and long animation frames (a frame's script and its rendering: style, layout
 * and paint of a long list are not part of any long task); `__screenAt`, the end of the first frame
 * painted with a screenful of rows (SCREEN_ROWS, or all `n`), and `__drawnAt`, the same with all
 * `n` rows in the list (a rAF, then a task after that frame).
 */
const observe = (n: number) => `
  window.__long = [];
  window.__screenAt = null;
  window.__drawnAt = null;
  for (const type of ['longtask', 'long-animation-frame']) {
    if (PerformanceObserver.supportedEntryTypes.includes(type)) {
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type, buffered: true });
    }
  }
  const painted = (name) => requestAnimationFrame(() => setTimeout(() => { window[name] = performance.now(); }));
  let screen = false;
  new MutationObserver((_m, obs) => {
    const list = document.getElementById('list');
    const rows = list ? list.getElementsByClassName('mon').length : 0;
    if (!screen && rows >= Math.min(${n}, ${SCREEN_ROWS})) { screen = true; painted('__screenAt'); }
    if (rows >= ${n}) { obs.disconnect(); painted('__drawnAt'); }
  }).observe(document, { childList: true, subtree: true });
`;

/** Polls an expression in the page until it is true (page.evaluate bypasses the page's policy; waitForFunction would not). */
async function waitIn(page: import('playwright-core').Page, expr: string, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await page.evaluate(expr))) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${expr}`);
    await sleep(50);
  }
}

export const dashboardScenario: Scenario = {
  name: NAME,
  summary: 'the overview with N monitors in Chromium: page weight, time to interactive, frames under 200 events/s',
  options: ['monitors', 'runs', 'rate', 'duration', 'trace'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const n = o.number('monitors', ctx.smoke ? 50 : 1000);
    const runs = Math.max(1, o.number('runs', ctx.smoke ? 1 : 5));
    const rate = Math.min(n, o.number('rate', ctx.smoke ? 20 : 200));
    const durationS = o.number('duration', ctx.smoke ? 2 : 10);
    const trace = o.string('trace', '');
    if (!CHROMIUM) throw new Error('Chromium is missing: apt-get install chromium (or set FARSIGHT_CHROMIUM)');
    const dir = tempDir(NAME);
    const notes: string[] = [];
    let service: Service | null = null;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      service = await Service.start({ dataDir: dir });
      const svc = service;
      const { cookie, keys } = await ownerSession(svc, KeyPool.sizeFor(n + rate + 50));
      log(NAME, `creating ${n} heartbeat monitors in ${GROUPS.length} groups`);
      const bodies = heartbeatMonitors(n).map((m, i) => ({
        ...m,
        group: GROUPS[i % GROUPS.length],
        tags: [`t${i % 7}`],
      }));
      await svc.createMonitors(keys, bodies);
      const ids = await svc.monitorIds(keys, 'heartbeat');
      const urls: string[] = [];
      for (const id of ids.slice(0, rate)) {
        urls.push(
          (
            await requestJson<{ heartbeat_url: string }>('POST', `${svc.url}/api/v1/monitors/${id}/heartbeat-token`, {
              headers: keys.header(),
              body: {},
            })
          ).heartbeat_url,
        );
      }
      const pinged = ids.slice(0, rate);

      const weight = await pageWeight(svc.url, cookie);
      log(NAME, `page weight ${(weight.bytes / 1024).toFixed(1)} KB compressed in ${weight.files} files`);

      const openContext = async () => {
        const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        await c.addCookies([{ name: 'service_session', value: cookie, url: svc.url }]);
        await c.addInitScript(observe(n));
        return c;
      };
      const interactive = async (
        p: import('playwright-core').Page,
        label: string,
      ): Promise<{ interactive: number; drawn: number }> => {
        if (trace && label.startsWith('run 1, first'))
          await browser.startTracing(p, {
            path: trace,
            categories: [
              'devtools.timeline',
              'v8.execute',
              'disabled-by-default-devtools.timeline',
              'disabled-by-default-v8.cpu_profiler',
            ],
          });
        await p.goto(`${svc.url}/`);
        await waitIn(p, 'window.__drawnAt !== null', 60_000);
        const screen = (await p.evaluate('window.__screenAt')) as number;
        const drawn = (await p.evaluate('window.__drawnAt')) as number;
        // Quiet for 500 ms: no long task ending later than 500 ms before now.
        await waitIn(
          p,
          '(() => { const l = window.__long; const end = Math.max(window.__drawnAt, ...l.map(([s, d]) => s + d)); return performance.now() - end >= 500; })()',
          60_000,
        );
        const long = (await p.evaluate('window.__long')) as [number, number][];
        // Lighthouse's rule with a 500 ms window: from the first screenful painted, the end of the
        // last long task or frame before the first 500 ms without any.
        let t = screen;
        for (const [s, d] of [...long].sort((a, b) => a[0] - b[0])) {
          if (s + d <= t) continue;
          if (s >= t + 500) break;
          t = s + d;
        }
        // Where the time went: each request's span, and the long tasks and frames (start+duration).
        const api = (await p.evaluate(
          "performance.getEntriesByType('resource').filter((e) => e.initiatorType !== 'navigation').map((e) => [new URL(e.name).pathname + new URL(e.name).search, Math.round(e.startTime), Math.round(e.responseStart), Math.round(e.responseEnd)])",
        )) as [string, number, number, number][];
        const spans = api.map(([u, s, f, e]) => `${u.replace('/api/v1/', '')} ${s}-${f}-${e}`).join(', ');
        const tasks = long.map(([s, d]) => `${Math.round(s)}+${Math.round(d)}`).join(', ');
        if (trace && label.startsWith('run 1, first')) {
          await browser.stopTracing();
          log(NAME, `trace of the first visit written to ${trace}`);
        }
        log(
          NAME,
          `${label}: interactive at ${Math.round(t)} ms (a screenful painted at ${Math.round(screen)} ms, all ${n} rows at ${Math.round(drawn)} ms; ${long.length} long tasks and frames: ${tasks}); requests (start-first byte-end ms): ${spans}`,
        );
        return { interactive: t, drawn };
      };

      // B. Time to interactive, each run in a new browser context: first visit (nothing cached,
      // the service worker not installed yet), then a return visit (the assets cached).
      const firstVisit: number[] = [];
      const returnVisit: number[] = [];
      const firstDrawn: number[] = [];
      const returnDrawn: number[] = [];
      let context = await openContext();
      let page = await context.newPage();
      for (let r = 0; r < runs; r++) {
        if (r > 0) {
          await context.close();
          context = await openContext();
          page = await context.newPage();
        }
        const first = await interactive(page, `run ${r + 1}, first visit`);
        const again = await interactive(page, `run ${r + 1}, return visit`);
        firstVisit.push(first.interactive);
        firstDrawn.push(first.drawn);
        returnVisit.push(again.interactive);
        returnDrawn.push(again.drawn);
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

      // C. Frames while the stream brings `rate` check events a second.
      await waitIn(page, "document.querySelector('#live:not(.down)') !== null", 30_000);
      await page.evaluate(
        `window.__frames = []; (function f(t) { window.__frames.push(t); requestAnimationFrame(f); })(performance.now());`,
      );
      const agent = keepAliveAgent(32);
      let sent = 0;
      let failed = 0;
      const tickMs = 50;
      const perTick = rate / (1000 / tickMs);
      let carry = 0;
      const until = performance.now() + durationS * 1000;
      const inflight: Promise<void>[] = [];
      while (performance.now() < until) {
        const tickStart = performance.now();
        carry += perTick;
        for (; carry >= 1; carry -= 1) {
          const url = urls[sent % urls.length];
          sent += 1;
          inflight.push(
            request('GET', url, { agent }).then(
              (a) => {
                if (a.status >= 300) failed += 1;
              },
              () => {
                failed += 1;
              },
            ),
          );
        }
        await sleep(Math.max(0, tickMs - (performance.now() - tickStart)));
      }
      await Promise.all(inflight);
      agent.destroy();
      await sleep(500);
      const frames = (await page.evaluate('window.__frames')) as number[];
      const spanS = (frames[frames.length - 1] - frames[0]) / 1000;
      const fps = (frames.length - 1) / spanS;
      let worst = Infinity;
      for (let s = frames[0]; s + 1000 <= frames[frames.length - 1]; s += 250) {
        worst = Math.min(worst, frames.filter((t) => t >= s && t < s + 1000).length);
      }
      const longestFrame = frames.slice(1).reduce((m, t, i) => Math.max(m, t - frames[i]), 0);
      // Applied: every pinged monitor's row says Up (a heartbeat ping is a good check).
      const upRows = (await page.evaluate(
        `[${pinged.join(',')}].filter((id) => { const r = document.querySelector('.mon[data-id="' + id + '"] .status'); return r && r.classList.contains('up'); }).length`,
      )) as number;
      log(
        NAME,
        `${sent} pings in ${durationS} s (${failed} failed): ${fps.toFixed(1)} fps, worst second ${worst}, longest frame ${Math.round(longestFrame)} ms, ${upRows}/${pinged.length} rows up`,
      );
      if (failed) notes.push(`${failed} of ${sent} pings failed`);
      if (upRows !== pinged.length)
        notes.push(
          `only ${upRows} of ${pinged.length} pinged rows showed Up at the end: the page did not apply every event`,
        );
      notes.push(
        `${n} heartbeat monitors in ${GROUPS.length} groups; ${weight.files} files loaded by the overview`,
        `interactive per run (ms), first visit: ${firstVisit.map((t) => Math.round(t)).join(', ')}; return visit: ${returnVisit.map((t) => Math.round(t)).join(', ')}`,
        `${sent} pings over ${durationS} s into ${urls.length} monitors, each a check event on the page's stream`,
      );
      await context.close();
      return {
        scenario: NAME,
        options: { monitors: n, runs, rate, duration: durationS },
        metrics: [
          metric('overview page weight, compressed', weight.bytes / 1024, 'KB', atMost(200)),
          metric('overview interactive, first visit, median', median(firstVisit), 'ms', atMost(1000)),
          metric('overview interactive, return visit, median', median(returnVisit), 'ms', atMost(1000)),
          metric(`all ${n} rows painted, first visit, median`, median(firstDrawn), 'ms'),
          metric(`all ${n} rows painted, return visit, median`, median(returnDrawn), 'ms'),
          metric(`frames while ${rate} events/s arrive`, fps, 'fps'),
          metric(
            `frames in the worst second at ${rate} events/s`,
            worst === Infinity ? null : worst,
            'fps',
            atLeast(30),
          ),
          metric('longest frame under the events', longestFrame, 'ms'),
          metric('pinged rows shown Up at the end', upRows, `of ${pinged.length}`, atLeast(pinged.length)),
        ],
        notes,
        elapsedS: elapsedS(started),
      };
    } finally {
      await browser.close();
      if (service) await service.stop();
      if (!ctx.keep) removeDir(dir);
    }
  },
};

/** Run on its own: `node dist/tsc/bench/dashboard.js [--monitors N] ... [--smoke]`. */
async function main(): Promise<void> {
  const o = new Options(parseArgs(['dashboard', ...process.argv.slice(2)]).options);
  for (const name of o.names()) {
    if (![...dashboardScenario.options, 'smoke', 'keep'].includes(name)) throw new Error(`unknown option --${name}`);
  }
  const ctx: RunContext = {
    smoke: o.flag('smoke'),
    resultsDir: DEFAULT_RESULTS_DIR,
    profile: false,
    keep: o.flag('keep'),
  };
  const start = runInfo();
  const result = await dashboardScenario.run(o, ctx);
  printTable([result]);
  process.stdout.write(`results: ${writeJson(ctx.resultsDir, NAME, [result], start)}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
