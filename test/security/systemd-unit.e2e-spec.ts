/**
 * The packaged units' sandbox, as systemd itself rates it: `systemd-analyze security --offline=true`
 * on systemd/farsight.service and systemd/farsight-agent.service must give an overall exposure of at most 2.0 (lower is safer; 10 is
 * an unconfined service). scripts/test-deps.sh installs systemd (Debian) when systemd-analyze is
 * missing. The line items that still count are listed in docs/reliability.md.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const UNITS = ['farsight.service', 'farsight-agent.service'];
const MAX_EXPOSURE = 2.0;

describe('systemd unit hardening', () => {
  it.each(UNITS)(`keeps systemd-analyze security exposure of %s at or below ${MAX_EXPOSURE}`, (name) => {
    const unit = path.join(__dirname, '..', '..', 'systemd', name);
    const run = spawnSync('systemd-analyze', ['security', '--offline=true', '--no-pager', unit], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (run.error)
      throw new Error(
        `systemd-analyze cannot run (${run.error.message}): scripts/test-deps.sh installs the Debian package systemd`,
      );
    const out = `${run.stdout}\n${run.stderr}`;
    const m = new RegExp(`Overall exposure level for ${name.replace('.', '\\.')}: (\\d+(?:\\.\\d+)?)`).exec(out);
    if (!m) throw new Error(`no exposure level in the output of systemd-analyze:\n${out}`);
    const exposure = Number(m[1]);
    const open = out
      .split('\n')
      .filter((l) => l.startsWith('✗'))
      .map((l) => l.replace(/\s{2,}/g, ' | ').trim());
    process.stdout.write(`systemd-analyze security: exposure ${exposure}; still counted:\n  ${open.join('\n  ')}\n`);
    expect(exposure).toBeLessThanOrEqual(MAX_EXPOSURE);
  });
});
