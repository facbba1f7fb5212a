/**
 * First-run setup from another machine (issue 33, item 1): the service started with the default
 * public URL (http://localhost:8080) is opened from a laptop by the box's address.
 */
import { totpAt } from '../../src/auth/password/totp';
import { SignInService } from '../../src/auth/sign-in/sign-in.service';
import { OWNER, TestApp, setupToken, startApp } from '../support/app';

const BOX = 'http://192.168.1.5:8080';
const UNSET = { FARSIGHT_PUBLIC_URL: '' };

describe('setup from another machine while no public URL is configured', () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  async function setup(origin: string, host: string, extra: Record<string, unknown> = {}) {
    const token = await setupToken(t);
    const info = await t.http.get(`/api/v1/auth/setup/${token}`).set('Host', host).expect(200);
    const res = await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .set('Host', host)
      .set('Origin', origin)
      .send({ ...OWNER, code: totpAt(info.body.totp.secret, t.clock.now()), ...extra });
    await t.app.get(SignInService).settled();
    return res;
  }
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    (res.headers['set-cookie'] as string[])[0].split(';')[0];

  it('renders the setup page with the offer to save its address; not once an address is configured', async () => {
    t = await startApp(UNSET);
    const page = await t.http.get('/setup/abc').expect(200);
    expect(page.text).toContain('data-public-url="http://localhost:8080"');
    expect(page.text).toContain('links of alerts and emails, in the status page');
    await t.close();
    t = await startApp();
    expect((await t.http.get('/setup/abc').expect(200)).text).not.toContain('public-url');
  });

  it("accepts the request's own origin, and the session then works from there", async () => {
    t = await startApp(UNSET);
    expect(t.config.publicUrlSource).toBe('default');
    const res = await setup(BOX, '192.168.1.5:8080');
    expect(res.status).toBe(200);
    await t.http
      .post('/api/v1/keys')
      .set('Host', '192.168.1.5:8080')
      .set('Origin', BOX)
      .set('Cookie', cookieOf(res))
      .send({ name: 'k', scope: 'read' })
      .expect(201);
  });

  it('still refuses any other origin, naming the addresses it accepts', async () => {
    t = await startApp(UNSET);
    const res = await setup('http://evil.example', '192.168.1.5:8080');
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(
      `cross-origin request refused: Origin http://evil.example is neither this page's own address (${BOX}) nor ${t.config.publicOrigin}`,
    );
  });

  it("saves the page's address as the public URL when asked: it is used at once and after a restart", async () => {
    t = await startApp(UNSET);
    const servers = async () => (await t.http.get('/api/openapi.json').expect(200)).body.servers[0].url as string;
    expect(await servers()).toMatch(/^http:\/\/localhost:8080/);
    const res = await setup(BOX, '192.168.1.5:8080', { public_url: BOX });
    expect(res.status).toBe(200);
    const cookie = cookieOf(res);
    const settings = await t.http
      .get('/api/v1/settings')
      .set('Host', '192.168.1.5:8080')
      .set('Cookie', cookie)
      .expect(200);
    expect(settings.body.public_url).toBe(BOX);
    // The route description was built before the save: it follows the new address.
    expect((await servers()).startsWith(BOX)).toBe(true);
    const [line] = await t.db.query<{ text: string }[]>("SELECT text FROM events WHERE kind = 'setup'");
    expect(line.text).toBe(`owner account created for ${OWNER.email}; public URL saved: ${BOX}`);
    // Now configured: another address of the same box is refused, and the refusal says where the address comes from.
    const other = await t.http
      .post('/api/v1/keys')
      .set('Host', 'nas.lan:8080')
      .set('Origin', 'http://nas.lan:8080')
      .set('Cookie', cookie)
      .send({ name: 'k', scope: 'read' });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe(
      `cross-origin request refused: Farsight's address is ${BOX} (saved at first-run setup; FARSIGHT_PUBLIC_URL overrides it); open Farsight there, or set FARSIGHT_PUBLIC_URL to the address you use`,
    );
    const dataDir = t.dataDir;
    await t.app.close();
    await t.db.close();
    t = await startApp(UNSET, { dataDir });
    expect([t.config.publicUrl, t.config.publicUrlSource]).toEqual([BOX, 'setting']);
    const onRestart = await startApp({ FARSIGHT_PUBLIC_URL: 'https://status.example.com' }, { dataDir });
    expect([onRestart.config.publicUrl, onRestart.config.publicUrlSource]).toEqual([
      'https://status.example.com',
      'env',
    ]);
    await onRestart.close();
  });

  it.each([
    [
      "another address than the page's",
      'http://10.0.0.9:8080',
      /must be the address this page is open at \(http:\/\/192\.168\.1\.5:8080\)/,
    ],
    ['a URL with a path', `${BOX}/farsight`, /scheme, host and port only/],
    ['something that is not a URL', 'box', /must be the address this page is open at/],
  ])('refuses to save %s, and creates nothing', async (_, publicUrl, message) => {
    t = await startApp(UNSET);
    const res = await setup(BOX, '192.168.1.5:8080', { public_url: publicUrl });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual([{ field: 'public_url', message: expect.stringMatching(message) }]);
    expect(await t.db.query('SELECT * FROM owner')).toEqual([]);
  });
});

describe('a configured public URL', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it("refuses the request's own origin, naming the expected address and FARSIGHT_PUBLIC_URL", async () => {
    t = await startApp({ FARSIGHT_PUBLIC_URL: 'https://status.example.com' });
    const token = await setupToken(t);
    const res = await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .set('Host', '192.168.1.5:8080')
      .set('Origin', BOX)
      .send({ ...OWNER, code: '000000' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(
      "cross-origin request refused: Farsight's address is https://status.example.com (FARSIGHT_PUBLIC_URL); open Farsight there, or set FARSIGHT_PUBLIC_URL to the address you use",
    );
  });

  it('refuses to save another public URL at setup', async () => {
    t = await startApp({ FARSIGHT_PUBLIC_URL: 'http://farsight.test' });
    const token = await setupToken(t);
    const info = await t.http.get(`/api/v1/auth/setup/${token}`).expect(200);
    const res = await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .set('Origin', 'http://farsight.test')
      .send({ ...OWNER, code: totpAt(info.body.totp.secret, t.clock.now()), public_url: 'http://farsight.test' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields[0]).toEqual({
      field: 'public_url',
      message: 'the public URL is already set (http://farsight.test, from FARSIGHT_PUBLIC_URL)',
    });
  });
});
