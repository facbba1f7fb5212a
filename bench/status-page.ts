/**
 * The status page's part of the api scenario: N monitors made public (through PUT /status-page,
 * in sections of ten), then `days` of daily rollups and 35 days of hourly ones written into the
 * stopped service's database, as months of checks would have left them (one day in 40 with some
 * downtime, an incident for it), the monitors created that long ago. Then the routes to time:
 * /api/public/status and /status for the default range, 24h and 12mo, cached (as served) and
 * uncached (the settings change before each timed GET, which drops every cached page), and the
 * page weight a browser loads.
 */
import type * as http from 'node:http';
import { encodeHistogram, Histogram, addTo } from '../src/history/latency-histogram';
import { Sqlite } from './db';
import { LoadTask, request, requestJson } from '../harness/http-client';
import type { KeyPool } from '../harness/service';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The default of settings.retention.hourly_days. */
const HOURLY_DAYS = 35;

export async function makePublic(url: string, keys: KeyPool, ids: readonly number[]): Promise<void> {
  const monitors = ids.map((id, i) => ({
    id,
    public: true,
    public_name: `Service ${i + 1}`,
    public_group: `Section ${Math.floor(i / 10) + 1}`,
    sort: i,
  }));
  await requestJson('PUT', `${url}/api/v1/status-page`, {
    headers: keys.header(),
    body: { title: 'Bench status', monitors },
    timeoutMs: 60_000,
  });
}

function histogram(
  base: number,
  seed: number,
): { hist: Buffer | null; sum: number; min: number; max: number; n: number } {
  const h: Histogram = {};
  let sum = 0;
  let min = Infinity;
  let max = 0;
  for (let i = 0; i < 16; i++) {
    const v = Math.round(base * (0.8 + (((seed * 31 + i * 17) % 100) / 100) * 0.5));
    addTo(h, v);
    sum += v;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return { hist: encodeHistogram(h), sum, min, max, n: 16 };
}

/** Writes the history into the database of a stopped service (UTC days: the settings' default zone). */
export async function seedHistory(
  dbFile: string,
  ids: readonly number[],
  days: number,
  now: number,
): Promise<{ rows: number }> {
  const db = await Sqlite.open(dbFile, 'rw');
  let rows = 0;
  try {
    await db.run('BEGIN');
    const today = Math.floor(now / DAY);
    const hourNow = Math.floor(now / HOUR);
    let incident = ((await db.get<{ n: number }>('SELECT COALESCE(MAX(id), 0) AS n FROM incidents')).n ?? 0) + 1;
    for (const [i, id] of ids.entries()) {
      await db.run('UPDATE monitors SET created_at = ? WHERE id = ?', [now - days * DAY, id]);
      const base = 20 + (i % 13) * 15;
      const dayRows: unknown[][] = [];
      for (let d = today - days + 1; d <= today; d++) {
        const watched = Math.min(DAY, now - d * DAY);
        const down = (d + i) % 40 === 0 ? Math.min(watched, ((i % 7) + 1) * 60_000) : 0;
        const h = histogram(base, i * 1000 + d);
        dayRows.push([
          id,
          d,
          watched - down,
          down,
          Math.round(watched / 60_000),
          Math.round(down / 60_000),
          h.n,
          h.sum,
          h.min,
          h.max,
          h.hist,
        ]);
        if (down > 0) {
          const start = d * DAY + 9 * HOUR;
          if (start + down < now) {
            await db.run(
              `INSERT INTO incidents (id, monitor_id, monitor_name, started_at, down_at, ended_at, end_reason, cause_code, cause_message, last_error_code, last_error_message, fails)
               VALUES (?, ?, ?, ?, ?, ?, 'recovered', 'status', 'status 503', 'status', 'status 503', 2)`,
              [incident++, id, `bench ${i}`, start, start + 20_000, start + down],
            );
          }
        }
      }
      const hourRows: unknown[][] = [];
      for (let h = hourNow - HOURLY_DAYS * 24 + 1; h <= hourNow; h++) {
        const watched = Math.min(HOUR, now - h * HOUR);
        const lat = histogram(base, i * 7 + h);
        hourRows.push([id, h, watched, 0, 60, 0, lat.n, lat.sum, lat.min, lat.max, lat.hist]);
      }
      for (const [table, key, list] of [
        ['rollup_day', 'day', dayRows],
        ['rollup_hour', 'hour', hourRows],
      ] as const) {
        for (let k = 0; k < list.length; k += 200) {
          const part = list.slice(k, k + 200);
          await db.run(
            `INSERT OR REPLACE INTO ${table} (monitor_id, ${key}, up_ms, down_ms, n_up, n_down, lat_n, lat_sum, lat_min, lat_max, hist)
             VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
            part.flat(),
          );
          rows += part.length;
        }
      }
    }
    await db.run('COMMIT');
    await db.run('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await db.close();
  }
  return { rows };
}

/**
 * How much of a public answer the harness keeps (its last bytes): the JSON is 1.2 MB and the page
 * 292 KB, and holding and decoding each whole answer made the bench process collect its own
 * garbage inside the latencies it measures (the public JSON cached: p99 10.6 ms read whole
 * against 1.5 ms at the median).
 */
const ANSWER_TAIL = 200;

/** A GET of a public answer, of which only the last bytes are kept (ANSWER_TAIL). */
export function tailTask(url: string, headers: Record<string, string> = {}): LoadTask {
  return (_i, agent) => request('GET', url, { headers, agent, timeoutMs: 10_000, tail: ANSWER_TAIL });
}

/** One timed GET after an untimed settings change that drops every cached page. */
export function uncachedTask(url: string, api: string, keys: KeyPool, headers: Record<string, string> = {}): LoadTask {
  return async (i: number, agent: http.Agent) => {
    const put = await request('PUT', `${api}/status-page`, {
      headers: keys.header(),
      body: { title: `Bench status ${i % 2}` },
      agent,
      timeoutMs: 10_000,
    });
    if (put.status !== 200) return { status: put.status, ms: put.ms, body: put.body };
    return request('GET', url, { agent, headers, timeoutMs: 10_000, tail: ANSWER_TAIL });
  };
}

/**
 * What a browser loads for the page, compressed as it would ask (brotli): the HTML, the
 * stylesheet, the accent stylesheet, the script and the one font it preloads. Bytes on the wire.
 */
export async function pageWeight(
  url: string,
): Promise<{ html: number; css: number; js: number; font: number; total: number }> {
  const br = { 'Accept-Encoding': 'br, gzip' };
  const size = async (path: string, headers: Record<string, string> = br) => {
    const a = await request('GET', `${url}${path}`, { headers });
    if (a.status !== 200) throw new Error(`GET ${path}: HTTP ${a.status}`);
    return Number(a.headers['content-length'] ?? Buffer.byteLength(a.body));
  };
  const page = await request('GET', `${url}/status`, { headers: br });
  const html = Number(page.headers['content-length']);
  const plain = (await request('GET', `${url}/status`)).body.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
  const find = (re: RegExp) => {
    const m = re.exec(plain);
    if (!m) throw new Error(`the page names no ${re}`);
    return m[1];
  };
  const css =
    (await size(find(/href="(\/status\.css\?v=[0-9a-f]+)"/))) +
    (await size(find(/href="(\/status\/theme\.css\?[^"]+)"/)));
  const js = await size(find(/src="(\/status\.js\?v=[0-9a-f]+)"/));
  const font = await size(find(/rel="preload" href="([^"]+)"/), {});
  return { html, css, js, font, total: html + css + js + font };
}
