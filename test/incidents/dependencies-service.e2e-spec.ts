/**
 * Dependencies on the built service as an operator runs it (issue 36, docs/dependencies.md): real
 * time, real http targets on 127.0.0.1 switched down and up. The router and the NAS behind it go
 * down: one incident, the router's, with the NAS affected; the service is stopped and started
 * again meanwhile and the NAS is still affected (the join is on disk with its state row), not an
 * incident of its own; the router comes back while the NAS is still down: the NAS opens its own
 * incident at once.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KeyPool, Service } from '../../harness/service';
import { requestJson } from '../../harness/http-client';
import { startSwitchServer, SwitchServer } from '../support/switch-server';

jest.setTimeout(180_000);

interface Incident {
  id: number;
  monitor_name: string;
  ended_at: string | null;
  affected: { name: string; until: string | null }[];
}

describe('dependencies on the running service', () => {
  let dir: string;
  let service: Service | null = null;
  let router: SwitchServer;
  let nas: SwitchServer;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-deps-'));
    [router, nas] = await Promise.all([startSwitchServer(), startSwitchServer()]);
  });
  afterAll(async () => {
    if (service) await service.stop();
    await Promise.all([router.close(), nas.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Polls until `ok` holds for what `read` answers, or fails after `ms`. */
  async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('one incident for the router and the NAS behind it, kept across a restart, split when the router returns', async () => {
    service = await Service.start({ dataDir: dir });
    const keys: KeyPool = await service.adminKeys(1);
    const api = (p: string, method = 'GET', body?: unknown) =>
      requestJson<Record<string, unknown>>(method, `${service!.url}/api/v1/${p}`, { headers: keys.header(), body });
    const monitor = (name: string, url: string, over: Record<string, unknown>) =>
      api('monitors', 'POST', { name, kind: 'http', interval_s: 10, retry_interval_s: 5, http: { url }, ...over });
    const r = (await monitor('router', router.url, { confirm_after: 1 })) as { id: number };
    const n = (await monitor('nas', nas.url, { confirm_after: 2, depends_on: ['slug:router'] })) as { id: number };
    const stateOf = async (id: number) => (await api(`monitors/${id}`)).state as Record<string, unknown>;
    const incidents = async () => (await api('incidents?state=all')).items as Incident[];
    await until(
      'both up',
      async () => [(await stateOf(r.id)).status, (await stateOf(n.id)).status],
      (v) => v.every((s) => s === 'up'),
    );

    router.status = 500;
    nas.status = 500;
    const joined = await until(
      'the NAS joins the router’s outage',
      () => stateOf(n.id),
      (s) => s.cause !== null,
    );
    expect(joined).toMatchObject({ status: 'down', incident_id: null });
    let all = await until('the join on disk', incidents, (i) => i.length === 1 && i[0].affected.length === 1);
    expect(all[0]).toMatchObject({ monitor_name: 'router', ended_at: null, affected: [{ name: 'nas', until: null }] });
    expect(joined.cause).toEqual({ monitor_id: r.id, incident_id: all[0].id });

    // A restart keeps the join: no incident of the NAS's own appears.
    await service.stop();
    service = await Service.start({ dataDir: dir });
    expect((await stateOf(n.id)).cause).toEqual({ monitor_id: r.id, incident_id: all[0].id });
    await new Promise((res) => setTimeout(res, 12_000));
    expect((await incidents()).map((i) => i.monitor_name)).toEqual(['router']);

    // The router returns; the NAS is still down: an incident of its own at once.
    router.status = 200;
    all = await until('the NAS gets its own incident', incidents, (i) => i.length === 2);
    expect(all.map((i) => [i.monitor_name, i.ended_at === null])).toEqual([
      ['nas', true],
      ['router', false],
    ]);
    expect(await stateOf(n.id)).toMatchObject({ status: 'down', cause: null, incident_id: all[0].id });
  });
});
