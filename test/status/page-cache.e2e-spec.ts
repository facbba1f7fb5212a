/**
 * What the status page keeps between builds never hides a change (src/status/public/fragments.ts
 * reuses bars equal to the last build's; public-status.service.ts keeps whole answers for 30 s
 * and drops them on a settings change or a maintenance window's start). Driven by the real
 * engine on the fake clock, with a page built before each change so that kept bars exist: a
 * settings change and a window starting show in the very next answer; a check landing and a
 * dependency cause changing show in the next answer after the page's 30 s; a day rolling over
 * gives a new day's bar, with yesterday's kept as it was.
 */
import { bearer } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';
import { startSwitchServer, SwitchServer } from '../support/switch-server';

interface Bar {
  period: string;
  state: string;
  down_ms: number;
}
interface Service {
  name: string;
  status: string;
  affected_by: string | null;
  bars: Bar[];
}

describe('the status page after each kind of change', () => {
  let h: EngineHarness;
  let routerTarget: SwitchServer;
  const PAGE_MS = 30_000;

  beforeAll(async () => {
    h = await startEngineHarness();
    routerTarget = await startSwitchServer();
    const create = async (body: Record<string, unknown>) =>
      (await h.t.http.post('/api/v1/monitors').set(bearer(h.write)).send(body).expect(201)).body as { id: number };
    const router = await create(
      httpMonitor({ name: 'router', public: true, public_name: 'Router', confirm_after: 1 }, { url: routerTarget.url }),
    );
    await create(
      httpMonitor(
        { name: 'shop', public: true, public_name: 'Shop', confirm_after: 1, depends_on: [router.id] },
        { url: h.target.url },
      ),
    );
    await step(0);
    // A first build of each answer, so that the ones below reuse what they can.
    await json('90d');
    await page();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await routerTarget?.close();
  });

  async function step(ms: number): Promise<void> {
    await h.advance(ms);
    await h.writer.flush();
  }
  const json = async (range = '90d') =>
    (await h.t.http.get(`/api/public/status?range=${range}`).expect(200)).body as {
      title: string;
      groups: { services: Service[] }[];
      maintenance: { title: string; state: string }[];
    };
  const page = async () => (await h.t.http.get('/status').expect(200)).text;
  const service = async (name: string, range = '90d') =>
    (await json(range)).groups.flatMap((g) => g.services).find((s) => s.name === name)!;

  it('a settings change shows in the very next answer, JSON and page', async () => {
    await h.t.http
      .put('/api/v1/status-page')
      .set(bearer(h.write))
      .send({ title: 'Home lab status', bar_style: 'share' })
      .expect(200);
    expect((await json()).title).toBe('Home lab status');
    const html = await page();
    expect(html).toContain('Home lab status');
    // The share style writes a step class on every bar: kept markup of the other style would not have it.
    expect(html).toMatch(/<i class="b ok d0"/);
  });

  it('a check landing shows in the next answer after the page cache: status and today’s bar', async () => {
    routerTarget.status = 500;
    await step(60_000);
    await step(PAGE_MS);
    const router = await service('Router');
    expect(router.status).toBe('down');
    const today = router.bars[router.bars.length - 1];
    expect(today.down_ms).toBeGreaterThan(0);
    expect(['warn', 'bad']).toContain(today.state);
    // The 24h range too (another strip, of hours).
    const hours = (await service('Router', '24h')).bars;
    expect(hours[hours.length - 1].down_ms).toBeGreaterThan(0);
    expect(await page()).toMatch(/title="[^"]*down /);
  });

  it('a dependency cause changing shows in the next answer after the page cache', async () => {
    expect((await service('Shop')).affected_by).toBeNull();
    h.target.status = 500;
    await step(60_000);
    await step(PAGE_MS);
    const shop = await service('Shop');
    expect(shop).toMatchObject({ status: 'down', affected_by: 'Router' });
    expect(await page()).toContain('affected by an outage of Router');
  });

  it('a maintenance window starting (the engine at its boundary) shows in the very next answer', async () => {
    const start = h.t.clock.now() + PAGE_MS + 10_000;
    await h.t.http
      .post('/api/v1/maintenance')
      .set(bearer(h.write))
      .send({
        title: 'Disk swap',
        schedule: {
          kind: 'once',
          start: new Date(start).toISOString(),
          end: new Date(start + 3_600_000).toISOString(),
        },
      })
      .expect(201);
    await step(PAGE_MS);
    expect((await json()).maintenance).toEqual([expect.objectContaining({ title: 'Disk swap', state: 'scheduled' })]);
    await step(10_000); // less than the page's 30 s: only the window's start can have dropped the answer
    expect((await json()).maintenance).toEqual([expect.objectContaining({ title: 'Disk swap', state: 'active' })]);
    expect(await page()).toContain('Disk swap');
  });

  it('a day rolling over gives the new day its bar; yesterday’s is kept as it was', async () => {
    const before = (await service('Router')).bars;
    const yesterday = before[before.length - 1];
    const DAY = 86_400_000;
    await step(DAY - (h.t.clock.now() % DAY) + 60_000);
    const after = (await service('Router')).bars;
    const iso = new Date(h.t.clock.now()).toISOString().slice(0, 10);
    expect(after[after.length - 1].period).toBe(iso);
    expect(after[after.length - 2]).toMatchObject({ period: yesterday.period, state: yesterday.state });
    expect(after[after.length - 2].down_ms).toBeGreaterThanOrEqual(yesterday.down_ms);
    expect(after.slice(0, -2)).toEqual(before.slice(1, -1));
  });
});
