/**
 * FARSIGHT_REFUSE_ROOT (the OCI image sets it on) on the built entry point: a command that opens the
 * data dir, run as root, stops with one line and exit 1 before it creates anything; `health`, which
 * opens nothing, still runs. As another user the switch changes nothing.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, SERVICE_ENTRY } from '../../harness/paths';

const IS_ROOT = process.geteuid?.() === 0;
const REFUSED = (dataDir: string) =>
  `farsight: running as root is refused (FARSIGHT_REFUSE_ROOT is on): files root writes in ${dataDir} ` +
  'could not be opened by the service user afterwards; run as the farsight user (in a container: without --user 0), ' +
  'or set FARSIGHT_REFUSE_ROOT=off\n';

describe('FARSIGHT_REFUSE_ROOT=on', () => {
  let dir: string;
  let port: number;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-refuse-root-'));
    port = await freePort();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[], extra: Record<string, string> = {}) =>
    spawnSync(process.execPath, [SERVICE_ENTRY, ...args], {
      env: {
        PATH: process.env.PATH,
        FARSIGHT_DATA_DIR: path.join(dir, 'data'),
        FARSIGHT_LISTEN: `127.0.0.1:${port}`,
        FARSIGHT_CANARIES: 'off',
        FARSIGHT_REFUSE_ROOT: 'on',
        ...extra,
      },
      encoding: 'utf8',
      timeout: 30_000,
    });

  it.each([['serve'], ['setup-link'], ['backup', 'x.db'], ['restore', 'x.db']])(
    `%s ${IS_ROOT ? 'stops as root before touching the data dir' : 'runs as a non-root user'}`,
    (...args) => {
      const r = run(args);
      if (IS_ROOT) {
        expect({ status: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({
          status: 1,
          stderr: REFUSED(path.join(dir, 'data')),
          stdout: '',
        });
        expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
      } else {
        expect(r.stderr).not.toContain('running as root is refused');
      }
    },
  );

  it('leaves root alone when off, and `health` alone always', () => {
    const off = run(['setup-link'], { FARSIGHT_REFUSE_ROOT: 'off' });
    expect(off.status).toBe(0);
    expect(off.stdout).toMatch(/\/setup\/[A-Za-z0-9_-]+\n$/);
    const health = run(['health']);
    expect(health.status).toBe(1);
    expect(health.stderr).toMatch(/^farsight: unhealthy: nothing listens at /);
  });

  it('refuses a value that is not a switch, naming it (exit 2)', () => {
    const r = run(['setup-link'], { FARSIGHT_REFUSE_ROOT: 'sometimes' });
    expect({ status: r.status, stderr: r.stderr }).toEqual({
      status: 2,
      stderr: 'farsight: FARSIGHT_REFUSE_ROOT: expected on or off (1/0, true/false, yes/no), got "sometimes"\n',
    });
  });
});
