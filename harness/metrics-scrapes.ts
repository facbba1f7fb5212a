/**
 * Runs the GET /metrics driver (metrics-scrape.ts, built JavaScript) in a process of its own and
 * reads its report: for `bench metrics` and test/system/metrics-scale.e2e-spec.ts.
 */
import * as path from 'node:path';
import { startChild } from './children';
import { ROOT } from './paths';
import type { Spread } from './stats';

export const SCRAPE_DRIVER = path.join(ROOT, 'dist', 'tsc', 'harness', 'metrics-scrape.js');

export interface ScrapeReport {
  monitors: number;
  scrapes: number;
  bytes: number;
  /** Whole answers as the client saw them, ms. */
  wall: Spread;
  /** CPU of the service's part (the exposition written), ms. */
  cpu: Spread;
  /** Median heap growth over scrapes without a collection, bytes; and how many such scrapes. */
  allocated: number | null;
  clean: number;
  load: number;
  cores: number;
}

export async function runScrapes(monitors: number, scrapes: number): Promise<ScrapeReport> {
  const child = startChild(process.execPath, [
    SCRAPE_DRIVER,
    '--monitors',
    String(monitors),
    '--scrapes',
    String(scrapes),
  ]);
  let out = '';
  child.proc.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const code = await child.exited;
  if (code !== 0) throw new Error(`metrics-scrape failed (${code}): ${child.tail()}`);
  return JSON.parse(out.trim().split('\n').pop() as string) as ScrapeReport;
}
