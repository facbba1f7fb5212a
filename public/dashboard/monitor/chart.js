// The response-time chart, drawn as SVG paths (one per series, however many points): raw ranges
// stack each check's phases (DNS, connect, TLS, first byte, the rest) as bars and mark failed
// checks in red; hourly and daily ranges draw the average as bars with the p95 as a line and
// mark periods with downtime. No library: the shapes are few and simple (docs/decisions).
import { clock, ms, when } from '../core/format.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 800;
const H = 180;
const PAD = { l: 44, r: 6, t: 8, b: 20 };

function node(tag, attrs) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

/** The top of the latency axis: the first round value (1, 2, 2.5, 5 times a power of ten) at or above `v`. */
export function niceMax(v) {
  if (v <= 0) return 10;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((c) => c >= v);
}

export const RAW_SERIES = [
  ['dns_ms', 'DNS'],
  ['connect_ms', 'Connect'],
  ['tls_ms', 'TLS'],
  ['ttfb_ms', 'First byte'],
  ['rest', 'The rest'],
];

/** The chart of a series answer, with `from`/`to` (epoch ms) as its x extent. */
export function drawChart(series, from, to) {
  const svg = node('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg', role: 'img', preserveAspectRatio: 'none' });
  const pts = series.points;
  const raw = series.resolution === 'raw';
  const value = (p) => (raw ? p.latency_ms : p.avg_ms);
  const top = niceMax(
    Math.max(1, ...pts.map((p) => (raw ? p.latency_ms || 0 : Math.max(p.p95_ms || 0, p.avg_ms || 0)))),
  );
  const x = (t) => PAD.l + ((t - from) / (to - from)) * (W - PAD.l - PAD.r);
  const y = (v) => H - PAD.b - (Math.min(v, top) / top) * (H - PAD.t - PAD.b);
  const step = pts.length > 1 ? Math.max(1, (x(pts[pts.length - 1].t_ms) - x(pts[0].t_ms)) / (pts.length - 1)) : 4;
  const bw = Math.max(1, Math.min(12, step * 0.8));

  for (const f of [0, 0.5, 1]) {
    const v = top * f;
    svg.appendChild(node('line', { x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v), class: 'grid' }));
    const label = node('text', { x: PAD.l - 6, y: y(v) + 4, class: 'axis', 'text-anchor': 'end' });
    label.textContent = ms(v);
    svg.appendChild(label);
  }
  for (const t of [from, (from + to) / 2, to]) {
    const label = node('text', {
      x: Math.min(W - 40, Math.max(PAD.l, x(t))),
      y: H - 4,
      class: 'axis',
      'text-anchor': t === from ? 'start' : t === to ? 'end' : 'middle',
    });
    label.textContent =
      to - from <= 26 * 3600_000 ? clock(t).replace(/:\d\d(\s|$)/, '$1') : when(t).replace(/,?\s*\d{1,2}:\d\d.*$/, '');
    svg.appendChild(label);
  }

  const paths = {};
  const add = (cls, d) => {
    paths[cls] = (paths[cls] || '') + d;
  };
  const bar = (cls, cx, v0, v1) => {
    if (v1 <= v0) return;
    add(
      cls,
      `M${(cx - bw / 2).toFixed(1)} ${y(v1).toFixed(1)}H${(cx + bw / 2).toFixed(1)}V${y(v0).toFixed(1)}H${(cx - bw / 2).toFixed(1)}z`,
    );
  };
  let line = '';
  for (const p of pts) {
    const cx = x(p.t_ms);
    if (raw) {
      if (p.outcome === 'down') {
        add(
          's-down',
          `M${(cx - bw / 2).toFixed(1)} ${PAD.t}H${(cx + bw / 2).toFixed(1)}V${H - PAD.b}H${(cx - bw / 2).toFixed(1)}z`,
        );
        continue;
      }
      let base = 0;
      for (const [key] of RAW_SERIES.slice(0, 4)) {
        const v = p[key] || 0;
        bar('s-' + key, cx, base, base + v);
        base += v;
      }
      if (p.latency_ms !== null) bar('s-rest', cx, base, p.latency_ms);
    } else {
      if (p.down > 0)
        add(
          's-downband',
          `M${(cx - bw / 2).toFixed(1)} ${PAD.t}H${(cx + bw / 2).toFixed(1)}V${H - PAD.b}H${(cx - bw / 2).toFixed(1)}z`,
        );
      if (value(p) !== null) bar('s-avg', cx, 0, value(p));
      if (p.p95_ms !== null && p.p95_ms !== undefined)
        line += `${line ? 'L' : 'M'}${cx.toFixed(1)} ${y(p.p95_ms).toFixed(1)}`;
    }
  }
  for (const [cls, d] of Object.entries(paths)) svg.appendChild(node('path', { d, class: cls }));
  if (line) svg.appendChild(node('path', { d: line, class: 's-p95' }));

  const good = pts.filter((p) => value(p) !== null && value(p) !== undefined);
  const avg = good.length ? good.reduce((a, p) => a + value(p), 0) / good.length : null;
  const down = raw ? pts.filter((p) => p.outcome === 'down').length : pts.filter((p) => p.down > 0).length;
  svg.setAttribute(
    'aria-label',
    pts.length
      ? `${pts.length} ${raw ? 'checks' : series.resolution === 'hour' ? 'hours' : 'days'}, ${ms(avg)} on average` +
          (down ? `, ${down} with failures` : ', none failed')
      : 'No checks in this range yet',
  );
  return svg;
}

export function legend(resolution) {
  const items =
    resolution === 'raw'
      ? [...RAW_SERIES.map(([k, l]) => ['s-' + k, l]), ['s-down', 'Failed check']]
      : [
          ['s-avg', 'Average'],
          ['s-p95', '95th percentile'],
          ['s-downband', 'Some downtime'],
        ];
  return items.map(([cls, label]) => {
    const li = document.createElement('li');
    const sw = document.createElement('span');
    sw.className = 'sw ' + cls;
    li.append(sw, document.createTextNode(label));
    return li;
  });
}
