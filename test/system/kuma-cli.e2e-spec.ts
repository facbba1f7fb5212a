/**
 * `farsight import-kuma` as a user runs it: the built service running (`node dist/main.js serve`),
 * the command in a process of its own with the service's environment and an admin key, a Kuma
 * database built in the test from Kuma's schema. The dry run changes nothing; --apply creates what
 * the dry run said; again reports everything unchanged; the imported push monitor takes a
 * Kuma-style push and goes Up. Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { requestJson, request } from '../../harness/http-client';
import { SERVICE_ENTRY } from '../../harness/paths';
import { KeyPool, Service } from '../../harness/service';
import { buildKumaDb } from '../support/kuma-fixture';
import { kumaSample, PUSH_TOKEN } from '../support/kuma-sample';

jest.setTimeout(120_000);

describe('farsight import-kuma', () => {
  let dir: string;
  let service: Service;
  let keys: KeyPool;
  let kumaDb: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kuma-cli-'));
    service = await Service.start({ dataDir: path.join(dir, 'data') });
    keys = await service.adminKeys(1);
    kumaDb = path.join(dir, 'kuma.db');
    await buildKumaDb(kumaDb, kumaSample(), { version: '1.23' });
  });
  afterAll(async () => {
    await service?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [SERVICE_ENTRY, 'import-kuma', ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: process.env.PATH,
        FARSIGHT_DATA_DIR: service.dataDir,
        FARSIGHT_LISTEN: service.url.replace('http://', ''),
        FARSIGHT_API_KEY: keys.keys[0],
        ...env,
      },
    });
  const slugs = async () =>
    (
      await requestJson<{ items: { slug: string }[] }>('GET', `${service.url}/api/v1/monitors?limit=200`, {
        headers: keys.header(),
      })
    ).items
      .map((m) => m.slug)
      .sort();

  it('dry run, apply, again: prints the plan, writes it, then finds everything unchanged; the push URL works', async () => {
    const dry = cli([kumaDb]);
    expect(dry.stderr).toBe('');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(
      /^Uptime Kuma 1\.23 database: dry run, nothing changed\n35 would be created, 1 would be updated, 0 unchanged, \d+ skipped/,
    );
    expect(dry.stdout).toMatch(/would be created +monitor "Backup job" \(backup-job\)/);
    expect(dry.stdout).toMatch(/skipped +monitor "Steam server": Kuma's "steam" monitors have no counterpart here/);
    expect(dry.stdout).toMatch(/Run again with --apply/);
    expect(await slugs()).toEqual([]);

    const json = cli([kumaDb, '--json']);
    const planned = JSON.parse(json.stdout) as { items: { type: string; key: string | null; outcome: string }[] };
    const toCreate = planned.items
      .filter((i) => i.type === 'monitor' && i.outcome === 'created')
      .map((i) => i.key)
      .sort();

    const applied = cli([kumaDb, '--apply', '--json']);
    expect(applied.status).toBe(0);
    const report = JSON.parse(applied.stdout) as { applied: boolean; items: { outcome: string }[] };
    expect(report.applied).toBe(true);
    expect(report.items.map((i) => i.outcome)).toEqual(planned.items.map((i) => i.outcome));
    expect(await slugs()).toEqual(toCreate);

    const again = cli([kumaDb, '--apply']);
    expect(again.stdout).toMatch(/\n0 created, 0 updated, 36 unchanged, \d+ skipped\n/);

    // The cron job's Kuma URL, unchanged after the switch.
    const push = await request('GET', `${service.url}/api/push/${PUSH_TOKEN}?status=up&msg=OK&ping=`);
    expect([push.status, push.body]).toEqual([200, 'OK\n']);
    const m = await requestJson<{ state: { status: string } }>(
      'GET',
      `${service.url}/api/v1/monitors/slug:backup-job`,
      { headers: keys.header() },
    );
    expect(m.state.status).toBe('up');
  });

  it.each([
    ['no key', [] as string[], { FARSIGHT_API_KEY: '' }, 2, /set FARSIGHT_API_KEY/],
    ['a file that is not there', ['/nonexistent/kuma.db'], {}, 1, /no such file/],
    ['a file that is not Kuma', ['__self__'], {}, 1, /not an Uptime Kuma database or backup/],
    [
      'a service that is not there',
      ['--url', 'http://127.0.0.1:9'],
      {},
      1,
      /cannot reach the service at http:\/\/127\.0\.0\.1:9/,
    ],
    ['an unknown option', ['--force'], {}, 2, /unknown option --force/],
  ])('%s: says so, exits with its code, writes nothing', async (_what, args, env, code, message) => {
    const file = args[0] === '__self__' ? SERVICE_ENTRY : args[0]?.startsWith('/') ? args[0] : kumaDb;
    const rest = args[0] === '__self__' || args[0]?.startsWith('/') ? args.slice(1) : args;
    const before = await slugs();
    const r = cli([file, ...rest, '--apply'], env);
    expect(r.status).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(await slugs()).toEqual(before);
  });
});
