/**
 * The response-time chart of a service page, drawn on the server as SVG path data (no script, no
 * inline style: the template sets classes). One point per bar of the range; a bar without data
 * breaks the line instead of pretending. Pure.
 */
export interface ChartPoint {
  label: string;
  avg_ms: number | null;
}

export interface Chart {
  width: number;
  height: number;
  /** The line, and the same line closed down to the axis (the shaded area). */
  line: string;
  area: string;
  /** Single points with no neighbour to join (drawn as dots). */
  dots: { x: number; y: number }[];
  ticks: { y: number; label: string }[];
  /** Text alternative: the figures the picture shows. */
  summary: string;
  empty: boolean;
}

export const CHART_W = 640;
export const CHART_H = 180;
const PAD_TOP = 12;
const PAD_BOTTOM = 8;

/** The smallest 1, 2 or 5 x 10^n at or above v. */
export function niceCeil(v: number): number {
  if (v <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function msText(ms: number): string {
  return ms >= 10_000
    ? `${(ms / 1000).toFixed(0)} s`
    : ms >= 1000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${Math.round(ms)} ms`;
}

export function drawChart(points: ChartPoint[], spanWords: string): Chart {
  const values = points.map((p) => p.avg_ms).filter((v): v is number => v !== null);
  const base = { width: CHART_W, height: CHART_H };
  if (values.length === 0 || points.length === 0) {
    return {
      ...base,
      line: '',
      area: '',
      dots: [],
      ticks: [],
      summary: `No response times were recorded in ${spanWords}.`,
      empty: true,
    };
  }
  const top = niceCeil(Math.max(...values) * 1.1);
  const plotH = CHART_H - PAD_TOP - PAD_BOTTOM;
  const step = points.length > 1 ? CHART_W / (points.length - 1) : 0;
  const xy = (i: number, v: number) => ({
    x: round(points.length > 1 ? i * step : CHART_W / 2),
    y: round(PAD_TOP + plotH * (1 - v / top)),
  });
  const runs: { x: number; y: number }[][] = [];
  let run: { x: number; y: number }[] = [];
  points.forEach((p, i) => {
    if (p.avg_ms === null) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(xy(i, p.avg_ms));
  });
  if (run.length) runs.push(run);
  const axis = round(PAD_TOP + plotH);
  const line = runs
    .filter((r) => r.length > 1)
    .map((r) => r.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join(''))
    .join('');
  const area = runs
    .filter((r) => r.length > 1)
    .map((r) => `M${r[0].x} ${axis}${r.map((p) => `L${p.x} ${p.y}`).join('')}L${r[r.length - 1].x} ${axis}Z`)
    .join('');
  const dots = runs.filter((r) => r.length === 1).map((r) => r[0]);
  const ticks = [top, top / 2, 0].map((v) => ({ y: round(PAD_TOP + plotH * (1 - v / top)), label: msText(v) }));
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const worst = points.reduce(
    (w, p) => (p.avg_ms !== null && (w === null || p.avg_ms > w.avg_ms!) ? p : w),
    null as ChartPoint | null,
  )!;
  const best = points.reduce(
    (w, p) => (p.avg_ms !== null && (w === null || p.avg_ms < w.avg_ms!) ? p : w),
    null as ChartPoint | null,
  )!;
  return {
    ...base,
    line,
    area,
    dots,
    ticks,
    summary: `Average response time over ${spanWords}: ${msText(mean)}. Slowest: ${msText(worst.avg_ms!)} (${worst.label}). Fastest: ${msText(best.avg_ms!)} (${best.label}).`,
    empty: false,
  };
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
