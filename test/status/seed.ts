/**
 * A status page with history for tests, screenshots and the benchmark's smoke: monitors made
 * through the API (public settings through PUT /status-page), then days and hours of rollups,
 * current statuses and incidents written into the database as the engine would have left them
 * after months of checks. Deterministic: the same call gives the same page.
 */
import { encodeHistogram, Histogram, addTo } from '../../src/history/latency-histogram';
import type { TestApp } from '../support/app';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;

export interface SeedService {
  name: string;
  /** The private monitor name (public_name is `name`). */
  privateName?: string;
  group: string | null;
  status?: 'up' | 'down' | 'slow' | 'paused' | 'unknown';
  /** Typical latency, ms. */
  latency?: number;
  /** Days ago -> minutes down that day. */
  downDays?: Record<number, number>;
  /** Watched for this many days (default: the whole history). */
  ageDays?: number;
  host?: string;
  error?: string;
  /** The monitor's own group, description and tags (public_group is `group`). */
  privateGroup?: string;
  description?: string;
  tags?: string[];
}

export const HOMELAB: SeedService[] = [
  { name: 'Homepage', group: 'Website', latency: 48, downDays: { 12: 3 } },
  { name: 'Blog', group: 'Website', latency: 95, downDays: { 40: 22 } },
  { name: 'Shop', group: 'Website', latency: 210, status: 'slow', downDays: { 2: 1, 33: 6 } },
  { name: 'Nextcloud', group: 'Apps', latency: 160, downDays: { 5: 95, 61: 4 } },
  { name: 'Home Assistant', group: 'Apps', latency: 35 },
  { name: 'Jellyfin', group: 'Apps', latency: 70, status: 'down', downDays: { 0: 38, 19: 2 } },
  { name: 'Vaultwarden', group: 'Apps', latency: 28, ageDays: 20 },
  { name: 'Router', group: 'Network', latency: 3 },
  { name: 'Pi-hole DNS', group: 'Network', latency: 6, downDays: { 27: 240 } },
  { name: 'NAS', group: 'Network', latency: 12 },
];

export interface Seeded {
  ids: number[];
  byName: Map<string, number>;
}

/** Deterministic noise in [0, 1). */
function noise(a: number, b: number): number {
  const x = Math.sin(a * 12.9898 + b * 78.233) * 43758.5453;
  return x - Math.floor(x);
}

function histogram(base: number, seed: number, n = 12): { hist: Histogram; sum: number; min: number; max: number } {
  const hist: Histogram = {};
  let sum = 0;
  let min = Infinity;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const v = Math.max(1, Math.round(base * (0.75 + noise(seed, i) * 0.6)));
    addTo(hist, v);
    sum += v;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return { hist, sum, min, max };
}

/**
 * Creates the services and their history up to the app's clock: `days` of daily rollups and
 * eight days of hourly ones. `headers` must carry a write key (or the owner's cookie and Origin).
 */
export async function seedStatusPage(
  t: TestApp,
  headers: Record<string, string>,
  services: SeedService[] = HOMELAB,
  days = 400,
): Promise<Seeded> {
  const now = t.clock.now();
  const tz = ((await t.db.query("SELECT value FROM settings WHERE key = 'tz_offset_min'")) as { value: string }[])[0];
  const tzMin = tz ? Number(JSON.parse(tz.value)) : 0;
  const today = Math.floor((now + tzMin * 60_000) / DAY);
  const byName = new Map<string, number>();
  const ids: number[] = [];
  for (const [i, s] of services.entries()) {
    const res = await t.http
      .post('/api/v1/monitors')
      .set(headers)
      .send({
        name: s.privateName ?? s.name,
        kind: 'http',
        group: s.privateGroup ?? null,
        description: s.description ?? null,
        tags: s.tags ?? [],
        http: { url: `https://${s.host ?? `svc-${i}.home.lan`}/health` },
      })
      .expect(201);
    ids.push(res.body.id);
    byName.set(s.name, res.body.id);
  }
  await t.http
    .put('/api/v1/status-page')
    .set(headers)
    .send({
      monitors: services.map((s, i) => ({
        id: ids[i],
        public: true,
        public_name: s.privateName ? s.name : null,
        public_group: s.group,
        sort: i,
      })),
    })
    .expect(200);

  for (const [i, s] of services.entries()) {
    const id = ids[i];
    const age = Math.min(s.ageDays ?? days, days);
    const created = now - age * DAY;
    await t.db.query('UPDATE monitors SET created_at = ? WHERE id = ?', [created, id]);
    const base = s.latency ?? 100;
    const dayRows: unknown[][] = [];
    for (let ago = 0; ago < age; ago++) {
      const day = today - ago;
      const dayStart = day * DAY - tzMin * 60_000;
      const watched = Math.min(now, dayStart + DAY) - Math.max(dayStart, created);
      if (watched <= 0) continue;
      const down = Math.min(watched, (s.downDays?.[ago] ?? 0) * 60_000);
      const h = histogram(base * (1 + 0.15 * Math.sin(ago / 9)), id * 1000 + ago);
      const n = Math.round(watched / 60_000);
      dayRows.push([
        id,
        day,
        watched - down,
        down,
        0,
        n,
        0,
        Math.round(down / 60_000),
        0,
        12,
        h.sum,
        h.min,
        h.max,
        encodeHistogram(h.hist),
      ]);
    }
    // Each outage as a time span: past ones from 14:00 local on their day, today's open one up to now.
    const outages = Object.entries(s.downDays ?? {}).map(([agoText, minutes]) => {
      const ago = Number(agoText);
      const open = ago === 0 && (s.status ?? 'up') === 'down';
      const from = open ? now - minutes * 60_000 : (today - ago) * DAY - tzMin * 60_000 + 14 * HOUR;
      return [from, from + minutes * 60_000] as const;
    });
    const hourRows: unknown[][] = [];
    const hourNow = Math.floor(now / HOUR);
    for (let h = hourNow - 8 * 24; h <= hourNow; h++) {
      const start = Math.max(h * HOUR, created);
      const end = Math.min(now, (h + 1) * HOUR);
      if (end <= start) continue;
      const down = outages.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(end, b) - Math.max(start, a)), 0);
      const lat = histogram(base * (1 + 0.25 * Math.sin(h / 5)), id * 7 + h, 4);
      hourRows.push([
        id,
        h,
        end - start - down,
        down,
        0,
        60,
        0,
        0,
        0,
        4,
        lat.sum,
        lat.min,
        lat.max,
        encodeHistogram(lat.hist),
      ]);
    }
    for (const [table, rows] of [
      ['rollup_day', dayRows],
      ['rollup_hour', hourRows],
    ] as const) {
      const key = table === 'rollup_day' ? 'day' : 'hour';
      for (let k = 0; k < rows.length; k += 200) {
        const part = rows.slice(k, k + 200);
        await t.db.query(
          `INSERT OR REPLACE INTO ${table} (monitor_id, ${key}, up_ms, down_ms, unknown_ms, n_up, n_slow, n_down, n_unknown, lat_n, lat_sum, lat_min, lat_max, hist)
           VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          part.flat(),
        );
      }
    }
    const status = s.status ?? 'up';
    let incidentId: number | null = null;
    let nextId = ((await t.db.query('SELECT COALESCE(MAX(id), 0) + 1 AS n FROM incidents')) as { n: number }[])[0].n;
    for (const [agoText, minutes] of Object.entries(s.downDays ?? {})) {
      const ago = Number(agoText);
      const open = ago === 0 && status === 'down';
      // Past outages began at 14:00 local time; today's open one began `minutes` ago.
      const started = open ? now - minutes * 60_000 : (today - ago) * DAY - tzMin * 60_000 + 14 * HOUR;
      const ended = open ? null : started + minutes * 60_000;
      if (started > now) continue;
      await t.db.query(
        `INSERT INTO incidents (id, monitor_id, monitor_name, started_at, down_at, ended_at, end_reason, cause_code, cause_message, last_error_code, last_error_message, fails)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'status', ?, 'status', ?, 3)`,
        [
          nextId,
          id,
          s.privateName ?? s.name,
          started,
          started + 20_000,
          ended,
          open ? null : 'recovered',
          s.error ?? 'status 503',
          s.error ?? 'status 503',
        ],
      );
      if (open) incidentId = nextId;
      nextId += 1;
    }
    await t.db.query(
      `UPDATE monitor_state SET status = ?, since = ?, last_check_at = ?, latency_ms = ?, error_code = ?, error_message = ?, incident_id = ? WHERE monitor_id = ?`,
      [
        status,
        now - HOUR,
        now - 30_000,
        base,
        status === 'down' ? 'status' : null,
        status === 'down' ? (s.error ?? 'status 503') : null,
        incidentId,
        id,
      ],
    );
    if (status === 'paused') await t.db.query('UPDATE monitors SET paused = 1 WHERE id = ?', [id]);
  }
  return { ids, byName };
}
