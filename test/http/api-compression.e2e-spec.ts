/**
 * JSON answers of the API go compressed to clients that take it (issue 33): brotli first, else
 * gzip, from 1 KB; smaller answers, HEAD, the event stream and clients that take neither get
 * the bytes as they are. Raw requests, so the test reads the bytes on the wire and decodes them itself.
 */
import * as http from 'node:http';
import * as zlib from 'node:zlib';
import { startListeningApp, TestApp } from '../support/app';
import { httpMonitor } from '../support/monitors';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('compressed API answers', () => {
  let t: TestApp;
  let port: number;
  let write: Record<string, string>;

  beforeAll(async () => {
    ({ t, port, write } = await startListeningApp());
    const monitors = Array.from({ length: 60 }, (_, i) =>
      httpMonitor({ name: `Service ${i}` }, { url: `http://10.0.0.${i + 1}/health` }),
    );
    await t.http.post('/api/v1/monitors/bulk').set(write).send({ monitors, dry_run: false }).expect(200);
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string>, method = 'GET') =>
    new Promise<Raw>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method, headers: { ...write, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    });

  it('sends the monitor list brotli-compressed, with its compressed length, and the same JSON inside', async () => {
    const plain = await get('/api/v1/monitors?limit=500', { 'Accept-Encoding': 'identity' });
    const br = await get('/api/v1/monitors?limit=500', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    // Compressed whole (not piece by piece as it was written): a page of 60 monitors to under a tenth.
    expect(br.body.length * 10).toBeLessThan(plain.body.length);
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );
  });

  it('sends gzip to a client that takes gzip only, for answers express writes too (the timeline)', async () => {
    const plain = await get('/api/v1/events?limit=200', { 'Accept-Encoding': 'identity' });
    const gz = await get('/api/v1/events?limit=200', { 'Accept-Encoding': 'gzip' });
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it.each<[string, string, Record<string, string>, string]>([
    ['a small answer', '/api/health', { 'Accept-Encoding': 'br' }, 'GET'],
    ['a client that takes neither', '/api/v1/monitors?limit=500', { 'Accept-Encoding': 'deflate' }, 'GET'],
    ['a refused encoding (q=0)', '/api/v1/monitors?limit=500', { 'Accept-Encoding': 'br;q=0, gzip;q=0' }, 'GET'],
    ['HEAD', '/api/v1/monitors?limit=500', { 'Accept-Encoding': 'br' }, 'HEAD'],
  ])('leaves %s as it is', async (_, path, headers, method) => {
    const res = await get(path, headers, method);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    if (method === 'GET') expect(() => JSON.parse(res.body.toString('utf8'))).not.toThrow();
  });

  it('leaves a small error answer in the envelope as it is', async () => {
    const res = await get('/api/v1/monitors/999999', { 'Accept-Encoding': 'br' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8')).error.code).toBe('not_found');
  });
});

describe('compressed list pages kept between reads', () => {
  let t: TestApp;
  let port: number;
  let write: Record<string, string>;

  beforeAll(async () => {
    ({ t, port, write } = await startListeningApp());
    const monitors = Array.from({ length: 30 }, (_, i) =>
      httpMonitor({ name: `Kept ${i}` }, { url: `http://10.0.1.${i + 1}/health` }),
    );
    await t.http.post('/api/v1/monitors/bulk').set(write).send({ monitors, dry_run: false }).expect(200);
  });
  afterAll(() => t.close());

  const names = (encoding: string) =>
    new Promise<string[]>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/v1/monitors?limit=500',
          headers: { ...write, 'Accept-Encoding': encoding },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            const text =
              res.headers['content-encoding'] === 'br'
                ? zlib.brotliDecompressSync(body)
                : res.headers['content-encoding'] === 'gzip'
                  ? zlib.gunzipSync(body)
                  : body;
            expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
            resolve((JSON.parse(text.toString('utf8')) as { items: { name: string }[] }).items.map((m) => m.name));
          });
        },
      );
      req.on('error', reject);
      req.end();
    });

  it.each(['br', 'gzip', 'identity'])(
    'shows a created, renamed or deleted monitor in the very next page (%s)',
    async (encoding) => {
      const first = await names(encoding);
      expect(await names(encoding)).toEqual(first);
      const made = (
        await t.http
          .post('/api/v1/monitors')
          .set(write)
          .send(httpMonitor({ name: `New ${encoding}` }, { url: 'http://10.0.2.1/' }))
          .expect(201)
      ).body as { id: number };
      expect(await names(encoding)).toEqual([`New ${encoding}`, ...first]);
      await t.http
        .patch(`/api/v1/monitors/${made.id}`)
        .set(write)
        .send({ name: `Renamed ${encoding}` })
        .expect(200);
      expect(await names(encoding)).toEqual([`Renamed ${encoding}`, ...first]);
      await t.http.delete(`/api/v1/monitors/${made.id}`).set(write).expect(200);
      expect(await names(encoding)).toEqual(first);
    },
  );
});
