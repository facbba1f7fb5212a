/**
 * Results: every scenario answers a list of metrics; a metric may carry the target it is judged
 * against. Printed as one table on stdout and written as JSON (bench/results/, git-ignored) with
 * the date, the commit and the machine, so figures can be compared across commits.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from '../harness/paths';
import { round } from '../harness/stats';

export interface Target {
  op: '<=' | '>=';
  value: number;
}

export interface Metric {
  name: string;
  /** null = not measurable in this run (for example a route that does not exist yet). */
  value: number | null;
  unit: string;
  target?: Target;
  /** true / false against the target; null when there is no target or no value. */
  met: boolean | null;
}

export interface ScenarioResult {
  scenario: string;
  options: Record<string, number | string | boolean>;
  metrics: Metric[];
  /** What was measured and how, in words; anything unusual seen during the run. */
  notes: string[];
  elapsedS: number;
}

export function metric(name: string, value: number | null, unit: string, target?: Target): Metric {
  const v = round(value);
  let met: boolean | null = null;
  if (target && value !== null && Number.isFinite(value))
    met = target.op === '<=' ? value <= target.value : value >= target.value;
  return { name, value: v, unit, ...(target ? { target } : {}), met };
}

export const atMost = (value: number): Target => ({ op: '<=', value });
export const atLeast = (value: number): Target => ({ op: '>=', value });

export function printTable(results: readonly ScenarioResult[], out: NodeJS.WritableStream = process.stdout): void {
  const rows: string[][] = [['scenario', 'metric', 'value', 'target', '']];
  for (const r of results) {
    for (const m of r.metrics) {
      rows.push([
        r.scenario,
        m.name,
        m.value === null ? 'n/a' : `${formatNumber(m.value)} ${m.unit}`.trim(),
        m.target ? `${m.target.op === '<=' ? '≤' : '≥'} ${formatNumber(m.target.value)} ${m.unit}`.trim() : '',
        m.met === null ? '' : m.met ? 'met' : 'MISSED',
      ]);
    }
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => [...row[c]].length)));
  const line = (row: string[]): string =>
    row
      .map((cell, c) => cell.padEnd(widths[c]))
      .join('  ')
      .trimEnd();
  out.write(`\n${line(rows[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows.slice(1)) out.write(`${line(row)}\n`);
  for (const r of results) for (const note of r.notes) out.write(`  [${r.scenario}] ${note}\n`);
}

function formatNumber(v: number): string {
  return Math.abs(v) >= 10_000 ? Math.round(v).toLocaleString('en-US') : String(v);
}

export interface RunInfo {
  date: string;
  commit: string;
  /** true when the working tree had uncommitted changes. */
  dirty: boolean;
  node: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  kernel: string;
}

export function runInfo(): RunInfo {
  const git = (...args: string[]): string => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  return {
    date: new Date().toISOString(),
    commit: git('rev-parse', '--short', 'HEAD') || 'unknown',
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release(),
  };
}

/**
 * Why the figures may not belong to one commit: src/ can change under a long run (the service is
 * built from the working tree, and restarts pick up a rebuilt dist/). Null when all is well.
 */
export function codeWarning(start: RunInfo, end: RunInfo): string | null {
  if (start.commit !== end.commit)
    return `HEAD moved from ${start.commit} to ${end.commit} during the run: figures may mix both`;
  if (start.dirty || end.dirty)
    return `uncommitted changes to tracked files during the run: figures are not those of ${end.commit} alone`;
  return null;
}

export function writeJson(dir: string, label: string, results: readonly ScenarioResult[], start: RunInfo): string {
  fs.mkdirSync(dir, { recursive: true });
  const info = runInfo();
  const file = path.join(dir, `${info.date.replace(/[:.]/g, '-')}-${label}.json`);
  const warning = codeWarning(start, info);
  fs.writeFileSync(
    file,
    `${JSON.stringify({ ...info, startedAt: start.date, startCommit: start.commit, warning, results }, null, 2)}\n`,
  );
  return file;
}
