/**
 * The route description passes Redocly's linter (`@redocly/cli lint`, its `recommended` rules,
 * two turned off for reasons written in redocly.yaml beside this file) with no error and no
 * warning (issue 33). The linter is installed from the npm registry by this test, at a pinned
 * version, into a folder of its own under the temp dir that later runs reuse (about 2 s the first
 * time): it is not a dependency of the project and nothing global is needed.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openApiJson } from '../../src/openapi/build';

const REDOCLY = '@redocly/cli@2.77.0';
const PREFIX = path.join(os.tmpdir(), `farsight-${REDOCLY.replace(/[@/]/g, '-').replace(/^-/, '')}`);
const BIN = path.join(PREFIX, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const CONFIG = path.join(__dirname, 'redocly.yaml');

jest.setTimeout(180_000);

/** Installs the linter once per machine (a failed or half install is retried). */
function installLinter(): void {
  if (fs.existsSync(BIN)) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    ['install', '--prefix', PREFIX, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', REDOCLY],
    { encoding: 'utf8', timeout: 170_000 },
  );
  if (r.status !== 0 || !fs.existsSync(BIN))
    throw new Error(`could not install ${REDOCLY} from the npm registry: ${r.stderr || r.error?.message}`);
}

it(`lints clean with ${REDOCLY} (recommended rules): no error, no warning`, () => {
  installLinter();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    // As an installation with its public URL set serves it (the default, localhost, is rightly
    // warned about by no-server-example.com: such a document is only of use on that machine).
    fs.writeFileSync(file, openApiJson('https://farsight.home.arpa'));
    const r = spawnSync(
      process.execPath,
      [BIN, 'lint', file, `--config=${CONFIG}`, '--format=json', '--max-problems=500'],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      },
    );
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`);
    expect({ status: r.status, totals: report.totals, problems }).toEqual({
      status: 0,
      totals: expect.objectContaining({ errors: 0, warnings: 0 }),
      problems: [],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
