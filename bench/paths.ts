/** The benchmark's own places; the repository root and the built service are in harness/paths.ts. */
import * as path from 'node:path';
import { ROOT } from '../harness/paths';

/** The benchmark, compiled (the farm runs as `node <BENCH_CLI> farm ...`). */
export const BENCH_CLI = path.join(ROOT, 'dist', 'tsc', 'bench', 'cli.js');
export const DEFAULT_RESULTS_DIR = path.join(ROOT, 'bench', 'results');
