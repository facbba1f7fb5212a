/**
 * Subscribing behind the sign-in pages' bot challenge: a local receiver emulates Cloudflare
 * Turnstile's siteverify endpoint as its docs describe it (POST form fields `secret`, `response`,
 * `remoteip`; a JSON answer `{success}`:
 * https://developers.cloudflare.com/turnstile/get-started/server-side-validation/). A missing or
 * refused token is a 403 on `challenge` and stores nothing; a verifier that cannot be reached is a
 * 503; the status page's form carries the widget and its policy allows the widget's one origin.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StatusPageService } from '../../src/status/settings/status-page.service';
import { TestApp, startApp } from '../support/app';

describe('subscribing with a bot challenge configured', () => {
  let t: TestApp;
  let verifier: http.Server;
  const seen: URLSearchParams[] = [];

  beforeAll(async () => {
    verifier = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        seen.push(form);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: form.get('response') === 'good-token' && form.get('secret') === 'sekrit' }));
      });
    });
    await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
    t = await startApp({
      FARSIGHT_CHALLENGE_SITE_KEY: 'site-key-1',
      FARSIGHT_CHALLENGE_SECRET: 'sekrit',
      FARSIGHT_CHALLENGE_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`,
    });
    // No owner yet (setup would need the challenge too): the setting is written as an import would.
    const pages = t.app.get(StatusPageService);
    const next = { ...(await pages.settings()), subscribers: true };
    await t.db.tx((m) => pages.saveIn(m, next, ['subscribers'], 'test'));
  });
  afterAll(async () => {
    await t.close();
    verifier.close();
  });

  const rows = () => t.db.read<{ email: string }[]>('SELECT email FROM subscribers');

  it.each<[string, Record<string, unknown>]>([
    ['no token', { email: 'bot1@example.com' }],
    ['a refused token', { email: 'bot2@example.com', challenge: 'bad-token' }],
    ['a 5 KB token', { email: 'bot3@example.com', challenge: 'x'.repeat(5000) }],
  ])('refuses %s with 403 on challenge, storing nothing', async (_what, body) => {
    const res = await t.http.post('/api/public/subscribe').send(body).expect(403);
    expect(res.body.error).toMatchObject({ code: 'forbidden', field: 'challenge' });
    expect(await rows()).toEqual([]);
  });

  it("takes a token the verifier accepts, sending it the client's address", async () => {
    await t.http.post('/api/public/subscribe').send({ email: 'ada@example.com', challenge: 'good-token' }).expect(202);
    expect(await rows()).toEqual([{ email: 'ada@example.com' }]);
    const last = seen[seen.length - 1];
    expect(last.get('remoteip')).toBe('127.0.0.1');
  });

  it("takes the form's widget token (cf-turnstile-response) and shows the widget on the page", async () => {
    await t.http
      .post('/status/subscribe')
      .type('form')
      .send('email=grace%40example.com&cf-turnstile-response=good-token')
      .expect(202);
    expect((await rows()).map((r) => r.email)).toContain('grace@example.com');
    const page = await t.http.get('/status').expect(200);
    expect(page.text).toContain('class="cf-turnstile sub-challenge" data-sitekey="site-key-1"');
    expect(page.text).toContain('<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer>');
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com");
    expect(csp).toContain('frame-src https://challenges.cloudflare.com');
    expect(csp).toContain("form-action 'self'");
  });

  it('answers 503 when the verifier cannot be reached, storing nothing', async () => {
    const before = (await rows()).length;
    await new Promise<void>((r) => verifier.close(() => r()));
    const res = await t.http.post('/api/public/subscribe').send({ email: 'late@example.com', challenge: 'good-token' });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('unavailable');
    expect(await rows()).toHaveLength(before);
  });
});
