/**
 * Pages in a real browser (the sign-in pages, the dashboard): the app listening on 127.0.0.1 with
 * the public URL http://localhost:<port> (a secure context for Chromium, so passkeys work), and
 * Debian's Chromium driven by playwright-core. `farsight.lan` resolves to the same server, to
 * show the pages as a LAN install over plain http (not a secure context).
 */
import * as fs from 'node:fs';
import { Browser, BrowserContext, CDPSession, chromium, Page } from 'playwright-core';
import { freePort } from '../../harness/paths';
import { issueSetupLink } from '../../src/auth/setup/links';
import { SessionsService } from '../../src/auth/sessions/sessions.service';
import { totpAt } from '../../src/auth/password/totp';
import { OWNER, StartOptions, startApp, TestApp } from './app';

export const CHROMIUM =
  process.env.FARSIGHT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface Served {
  t: TestApp;
  base: string;
  port: number;
}

export async function serve(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<Served> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const t = await startApp({ FARSIGHT_PUBLIC_URL: base, ...env }, opts);
  await new Promise<void>((resolve, reject) => {
    const server = t.app.getHttpServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { t, base, port };
}

export async function launch(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('Chromium is missing: run scripts/test-deps.sh (apt-get install chromium)');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--host-resolver-rules=MAP farsight.lan 127.0.0.1, MAP localhost 127.0.0.1',
    ],
  });
}

/** A platform authenticator with user verification, as a phone or laptop has (DevTools' virtual one). */
export async function virtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

export interface AxeResults {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  // Evaluated through DevTools rather than added as a <script>: the page's policy refuses inline
  // scripts (as it should), and stays in force for everything the page itself runs.
  await page.evaluate(AXE_SOURCE);
  // Expressions as strings: the project compiles without DOM types.
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** First-run setup through the API, from the served origin; the session cookie value and the authenticator secret. */
export async function createOwnerAt(s: Served): Promise<{ cookie: string; secret: string; codes: string[] }> {
  const token = (await issueSetupLink(s.t.db, s.t.clock.now(), s.t.config.publicUrl)).url.split('/').pop() as string;
  const info = await s.t.http.get(`/api/v1/auth/setup/${token}`).expect(200);
  const secret = info.body.totp.secret as string;
  const res = await s.t.http
    .post(`/api/v1/auth/setup/${token}`)
    .set('Origin', s.base)
    .send({ ...OWNER, code: totpAt(secret, s.t.clock.now()) })
    .expect(200);
  const cookie = (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0].split('=')[1];
  return { cookie, secret, codes: res.body.recovery_codes };
}

/** A new session of the owner, as the first-run setup made one (a fixture: every test signs out its own). */
export async function ownerSession(s: Served): Promise<string> {
  return (await s.t.app.get(SessionsService).create('setup', '127.0.0.1', 'Chrome on Linux')).token;
}

/** A browser context signed in as the owner with the given session cookie value. */
export async function signedInContext(
  browser: Browser,
  s: Served,
  cookie: string,
  opts: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(opts);
  await context.addCookies([{ name: 'service_session', value: cookie, url: s.base }]);
  return context;
}

/** Mints an API key with an owner session at the served origin. */
export async function keyAt(s: Served, scope: 'read' | 'write' | 'admin', name = `${scope} key`): Promise<string> {
  const res = await s.t.http
    .post('/api/v1/keys')
    .set('Cookie', `service_session=${await ownerSession(s)}`)
    .set('Origin', s.base)
    .send({ name, scope })
    .expect(201);
  return res.body.key as string;
}
