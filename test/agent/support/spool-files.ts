/**
 * What an agent's spool holds and the service has not acknowledged, read from its files
 * (docs/agents.md, "The spool": `seg-*` files of one JSON result a line, and `acked`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Spooled {
  seq: number;
  monitor: number;
  /** The check's start, epoch ms. */
  at: number;
}

/** The spooled results not yet acknowledged, in the files' order. */
export function spooled(dir: string): Spooled[] {
  const acked = fs.existsSync(path.join(dir, 'acked')) ? Number(fs.readFileSync(path.join(dir, 'acked'), 'utf8')) : 0;
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('seg-'))
    .sort()
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { seq: number; monitor_id: number; at: string })
    .filter((r) => r.seq > acked)
    .map((r) => ({ seq: r.seq, monitor: r.monitor_id, at: Date.parse(r.at) }));
}
