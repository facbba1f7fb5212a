/**
 * Concurrent writes to the same monitor (issue 10): every decision that depends on what is stored
 * is taken inside the write transaction, so requests that arrive together answer as if they had
 * come one after another.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { tcpMonitor } from '../support/monitors';

const N = 30;

describe('concurrent monitor writes', () => {
  let t: TestApp;
  let write: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = bearer(await createKey(t, cookie, 'write'));
    // One listening server for all the parallel requests (supertest would otherwise listen once per request).
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.db.query('DELETE FROM monitors');
  });

  const monitors = () => t.db.query<{ id: number; slug: string }[]>('SELECT id, slug FROM monitors ORDER BY id');

  it(`answers ${N} identical PUT by slug with one 201 and ${N - 1} × 200, and one monitor`, async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, () => request(base).put('/api/v1/monitors/by-slug/x').set(write).send(tcpMonitor())),
    );
    const statuses = answers.map((r) => r.status).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array<number>(N - 1).fill(200), 201]);
    expect(await monitors()).toEqual([{ id: expect.any(Number), slug: 'x' }]);
    const ids = new Set(answers.map((r) => r.body.id));
    expect(ids.size).toBe(1);
  });

  it(`never claims created twice for the same slug in ${N} identical bulk posts`, async () => {
    const body = { monitors: [tcpMonitor({ name: 'Alpha' }), tcpMonitor({ name: 'Beta', slug: 'b' })] };
    const answers = await Promise.all(
      Array.from({ length: N }, () => request(base).post('/api/v1/monitors/bulk').set(write).send(body)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array<number>(N).fill(200));
    const created = answers.flatMap((r) => r.body.created as string[]).sort();
    const unchanged = answers.flatMap((r) => r.body.unchanged as string[]);
    expect(created).toEqual(['alpha', 'b']);
    expect(unchanged).toHaveLength(2 * (N - 1));
    expect(answers.flatMap((r) => r.body.updated as string[])).toEqual([]);
    expect((await monitors()).map((m) => m.slug).sort()).toEqual(['alpha', 'b']);
  });

  it('keeps every field of PATCHes to different fields that arrive together', async () => {
    const m = (await request(base).post('/api/v1/monitors').set(write).send(tcpMonitor()).expect(201)).body;
    const changes: Record<string, unknown>[] = [
      { description: 'primary' },
      { group: 'storage' },
      { sort: 7 },
      { tags: ['lab'] },
      { public_name: 'Main database' },
      { confirm_after: 3 },
    ];
    const answers = await Promise.all(
      changes.map((c) => request(base).patch(`/api/v1/monitors/${m.id}`).set(write).send(c)),
    );
    expect(answers.map((r) => r.status)).toEqual(changes.map(() => 200));
    const got = await request(base).get(`/api/v1/monitors/${m.id}`).set(write).expect(200);
    expect(got.body).toMatchObject(Object.assign({}, ...changes));
  });
});
