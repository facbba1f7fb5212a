/**
 * Reads a V8 CPU profile (`node --cpu-prof`) of the service and answers where the time went: the
 * functions with the most self time and the most inclusive time, and a split by package. Frames of
 * the bundle (dist/main.js) are mapped back to src/*.ts through its source map, so the answer names
 * our files and lines. `npm run bench -- profile <file.cpuprofile> [--top N]` prints it.
 */
import * as fs from 'node:fs';
import { SourceMap } from 'node:module';
import * as path from 'node:path';
import { ROOT } from '../harness/paths';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface FrameTime {
  frame: string;
  category: string;
  selfMs: number;
  totalMs: number;
  /** Share of busy (non-idle) time, %. */
  selfPct: number;
  totalPct: number;
}

export interface ProfileSummary {
  file: string;
  wallMs: number;
  busyMs: number;
  top: FrameTime[];
  topInclusive: FrameTime[];
  categories: { category: string; ms: number; pct: number }[];
}

const IDLE = '(idle)';

/**
 * A time window in µs of the monotonic clock (process.hrtime.bigint() / 1000n in any process on the
 * machine: V8 stamps profiles with the same clock), to leave the service's start-up out.
 */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

/** A window of seconds from the start of a profile (for reading a saved profile afterwards). */
export function profileWindow(file: string, fromS: number, toS: number): ProfileWindow {
  const { startTime } = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  return {
    fromUs: startTime + fromS * 1e6,
    toUs: Number.isFinite(toS) ? startTime + toS * 1e6 : Number.MAX_SAFE_INTEGER,
  };
}

export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export function summariseProfile(file: string, topN = 15, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const maps = new Map<string, SourceMap | null>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (window && (t < window.fromUs || t > window.toUs)) return;
    self.set(id, (self.get(id) ?? 0) + delta);
  });
  const spanUs = window
    ? Math.min(window.toUs, profile.endTime) - Math.max(window.fromUs, profile.startTime)
    : profile.endTime - profile.startTime;

  const place = new Map<number, { frame: string; category: string }>();
  for (const n of profile.nodes) place.set(n.id, describe(n.callFrame, maps));

  const selfBy = new Map<string, number>();
  const totalBy = new Map<string, number>();
  const categoryOf = new Map<string, string>();
  const categories = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const p = place.get(id)!;
    if (p.frame === IDLE) continue;
    busy += us;
    selfBy.set(p.frame, (selfBy.get(p.frame) ?? 0) + us);
    categories.set(p.category, (categories.get(p.category) ?? 0) + us);
  }
  // Inclusive time: a frame counts once per stack even when it recurses.
  const root = profile.nodes[0];
  const active = new Map<string, number>();
  const inclusive = (node: ProfileNode): number => {
    const p = place.get(node.id)!;
    categoryOf.set(p.frame, p.category);
    active.set(p.frame, (active.get(p.frame) ?? 0) + 1);
    let us = self.get(node.id) ?? 0;
    for (const child of node.children ?? []) us += inclusive(byId.get(child)!);
    active.set(p.frame, active.get(p.frame)! - 1);
    if (active.get(p.frame) === 0 && p.frame !== IDLE) totalBy.set(p.frame, (totalBy.get(p.frame) ?? 0) + us);
    return us;
  };
  inclusive(root);

  const ms = (us: number): number => Math.round(us / 100) / 10;
  const pct = (us: number): number => (busy > 0 ? Math.round((1000 * us) / busy) / 10 : 0);
  const row = (frame: string): FrameTime => ({
    frame,
    category: categoryOf.get(frame) ?? '',
    selfMs: ms(selfBy.get(frame) ?? 0),
    totalMs: ms(totalBy.get(frame) ?? 0),
    selfPct: pct(selfBy.get(frame) ?? 0),
    totalPct: pct(totalBy.get(frame) ?? 0),
  });
  const rootFrames = new Set(['(root)', '(program)']);
  return {
    file,
    wallMs: ms(spanUs),
    busyMs: ms(busy),
    top: [...selfBy.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([f]) => row(f)),
    topInclusive: [...totalBy.entries()]
      .filter(([f]) => !rootFrames.has(f))
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([f]) => row(f)),
    categories: [...categories.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([category, us]) => ({ category, ms: ms(us), pct: pct(us) })),
  };
}

/**
 * Who calls the frames whose name contains `pattern`: the call paths leading to them (up to
 * `depth` frames up), ranked by the self time spent in them below each path.
 */
export function callersOf(file: string, pattern: string, depth = 4, topN = 8, window?: ProfileWindow): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const maps = new Map<string, SourceMap | null>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const frame = (id: number): string => describe(byId.get(id)!.callFrame, maps).frame;
  const paths = new Map<string, number>();
  let total = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (window && (t < window.fromUs || t > window.toUs)) return;
    if (!frame(id).includes(pattern)) return;
    total += delta;
    const chain: string[] = [];
    for (let p = parent.get(id); p !== undefined && chain.length < depth; p = parent.get(p)) chain.push(frame(p));
    const key = chain.join('\n      ← ');
    paths.set(key, (paths.get(key) ?? 0) + delta);
  });
  const lines = [`frames matching "${pattern}": ${Math.round(total / 1000)} ms self; called from:`];
  for (const [chain, us] of [...paths.entries()].sort((a, b) => b[1] - a[1]).slice(0, topN)) {
    lines.push(`  ${Math.round((100 * us) / Math.max(1, total))} %  ← ${chain}`);
  }
  return lines.join('\n');
}

export function formatProfile(s: ProfileSummary): string {
  const lines = [
    `profile ${path.relative(ROOT, s.file)}: ${s.wallMs} ms wall, ${s.busyMs} ms busy (not idle)`,
    '',
    'by package:',
  ];
  for (const c of s.categories.slice(0, 10)) lines.push(`  ${String(c.pct).padStart(5)} %  ${c.category}`);
  lines.push('', 'top frames by self time (% of busy):');
  for (const f of s.top) lines.push(`  ${String(f.selfPct).padStart(5)} %  ${f.frame}`);
  lines.push('', 'top frames by inclusive time (% of busy):');
  for (const f of s.topInclusive) lines.push(`  ${String(f.totalPct).padStart(5)} %  ${f.frame}`);
  return lines.join('\n');
}

/** The newest .cpuprofile in dir (node names them by time and pid). */
export function newestProfile(dir: string): string | null {
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f));
  files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return files[0] ?? null;
}

function describe(cf: CallFrame, maps: Map<string, SourceMap | null>): { frame: string; category: string } {
  const name = cf.functionName || '(anonymous)';
  if (name.startsWith('(') && !cf.url) return { frame: name, category: name === IDLE ? IDLE : name };
  if (!cf.url) return { frame: `${name} [native]`, category: 'native (V8 / node C++)' };
  if (cf.url.startsWith('node:')) return { frame: `${name} ${cf.url}:${cf.lineNumber + 1}`, category: 'node core' };
  const file = cf.url.startsWith('file://') ? new URL(cf.url).pathname : cf.url;
  const mapped = mapBack(file, cf, maps);
  const where = mapped ?? { source: path.relative(ROOT, file), line: cf.lineNumber + 1 };
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where.source);
  const category = pkg ? pkg[1] : where.source.startsWith('src/') ? 'farsight src' : where.source;
  return { frame: `${name} ${where.source}:${where.line}`, category };
}

/** Maps a frame in a bundled file back to its source through the file's .map, when there is one. */
function mapBack(
  file: string,
  cf: CallFrame,
  maps: Map<string, SourceMap | null>,
): { source: string; line: number } | null {
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      if (fs.existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  const map = maps.get(file);
  if (!map) return null;
  const entry = map.findEntry(cf.lineNumber, cf.columnNumber) as { originalSource?: string; originalLine?: number };
  if (!entry.originalSource) return null;
  const source = path.relative(ROOT, path.resolve(path.dirname(file), entry.originalSource.replace(/^file:\/\//, '')));
  return { source, line: (entry.originalLine ?? 0) + 1 };
}
