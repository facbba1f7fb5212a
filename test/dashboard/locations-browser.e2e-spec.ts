/**
 * Probe locations in the dashboard (issue 41, docs/agents.md), in Debian's Chromium: the Locations
 * page adds a location (its token shown once, with the lines that install the agent, and working
 * on the agent routes), asks for a fresh sign-in when the session is old, shows a name refused by
 * the API under its input, follows the agent's contact (never connected, then online), renames,
 * makes a new token (the old one is refused at once) and removes; the monitor form chooses the
 * locations and the quorum (the API's refusal shown under the input); the monitor page shows the
 * state and the uptime (24 h, 30 d, from the location's own rollups) from each location. Axe-clean at desktop and phone width; screenshots go to
 * test/artifacts/dashboard/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpAt } from '../../src/auth/password/totp';
import { bearer, OWNER } from '../support/app';
import {
  createOwnerAt,
  keyAt,
  launch,
  ownerSession,
  seriousAxeFindings,
  serve,
  Served,
  signedInContext,
} from '../support/browser';
import { startSwitchServer, SwitchServer } from '../support/switch-server';

jest.setTimeout(180_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'dashboard');

let browser: Browser;
let s: Served;
let target: SwitchServer;
let secret: string;
let admin: Record<string, string>;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  [browser, s, target] = await Promise.all([launch(), serve(), startSwitchServer()]);
  secret = (await createOwnerAt(s)).secret;
  admin = bearer(await keyAt(s, 'admin', 'locations'));
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await target?.close();
});

async function open(
  width: number,
  cookie?: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await signedInContext(browser, s, cookie ?? (await ownerSession(s)), {
    viewport: { width, height: 900 },
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

async function horizontalOverflow(page: Page): Promise<number> {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  return (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
}

/** The agent's long poll, answered at once: 200 with the config, or the refusal's status. */
const agentConfig = (token: string) => s.t.http.get('/api/agent/config?wait_s=0').set(bearer(token));

const row = (page: Page, name: string) => page.locator(`#rows tr[data-location="${name}"]`);

describe('the Locations page', () => {
  it('adds a location after a fresh sign-in, shows its token once with the install lines, and follows its agent', async () => {
    const cookie = await ownerSession(s);
    // The session is older than 12 hours: adding a location asks to confirm it is the owner.
    s.t.clock.advance(13 * 3600_000);
    const { context, page, errors } = await open(1280, cookie);
    try {
      await page.goto(`${s.base}/locations`);
      await page.locator('#loading').waitFor({ state: 'hidden' });
      expect(await page.locator('#empty').isVisible()).toBe(true);

      // A reserved name is refused under its input; nothing is created.
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('local');
      await page.getByRole('button', { name: 'Add the location' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
      await dialog.waitFor();
      await dialog.getByLabel('Password').fill(OWNER.password);
      await dialog.getByLabel('Authenticator code').fill(totpAt(secret, s.t.clock.now()));
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await page.locator('#loc-form .field-error').waitFor();
      expect(await page.locator('#lf-name').getAttribute('aria-invalid')).toBe('true');
      expect((await s.t.http.get('/api/v1/locations').set(admin).expect(200)).body.items).toEqual([]);

      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('vps-fra');
      await page.getByRole('button', { name: 'Add the location' }).click();
      await page.locator('#shown:not([hidden])').waitFor();
      expect(await page.locator('#shown-title').innerText()).toBe('Install the agent for "vps-fra"');
      const token = await page.locator('#shown-token').innerText();
      expect(token).toMatch(/^fsa_[0-9a-f]{48}$/);
      const install = await page.locator('#shown-install').innerText();
      expect(install).toContain(`FARSIGHT_AGENT_SERVER=${s.base}\n`);
      expect(install).toContain(`FARSIGHT_AGENT_TOKEN=${token}\n`);
      expect(install).toContain('sudo systemctl enable --now farsight-agent');
      expect(install).toMatch(/sudo apt install \.\/farsight_\d+\.\d+\.\d+[^ ]*_amd64\.deb/);
      // localhost is loopback: no warning about plain http.
      expect(await page.locator('#shown-http').isHidden()).toBe(true);
      await row(page, 'vps-fra').locator('.status', { hasText: 'Never connected' }).waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'locations-new-1280');

      // The token shown is the agent's credential: its first contact turns the location online.
      await agentConfig(token).expect(200);
      await page.reload();
      await row(page, 'vps-fra').locator('.status', { hasText: 'Online' }).waitFor();
      expect(await page.locator('#shown').isHidden()).toBe(true);
      // The browser's clock is the machine's, the service's a test clock: only that it was seen is compared.
      expect(await row(page, 'vps-fra').innerText()).toContain('last seen');
      expect(errors.filter((e) => !e.includes('403') && !e.includes('422'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('renames, makes a new token that locks the old one out at once, and removes, each confirmed in a dialog', async () => {
    const created = await s.t.http
      .post('/api/v1/locations')
      .set('Cookie', `service_session=${await ownerSession(s)}`)
      .set('Origin', s.base)
      .send({ name: 'pi-at-mums' })
      .expect(201);
    const old = created.body.token as string;
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/locations`);
      await row(page, 'pi-at-mums').waitFor();

      await page.getByRole('button', { name: 'Rename pi-at-mums' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename "pi-at-mums"' });
      await rename.getByLabel('New name').fill('Local');
      await rename.getByRole('button', { name: 'Rename' }).click();
      // Reserved (names are compared without case): the refusal stays in the dialog, under the input.
      await rename.locator('.field-error').waitFor();
      await rename.getByLabel('New name').fill('pi-at-home');
      await rename.getByRole('button', { name: 'Rename' }).click();
      await row(page, 'pi-at-home').waitFor();
      await agentConfig(old).expect(200);

      await page.getByRole('button', { name: 'Rotate token of pi-at-home' }).click();
      const rotate = page.getByRole('dialog', { name: 'Rotate the token of "pi-at-home"?' });
      await rotate.getByRole('button', { name: 'Rotate the token' }).click();
      await page.locator('#shown:not([hidden])').waitFor();
      const fresh = await page.locator('#shown-token').innerText();
      expect(fresh).toMatch(/^fsa_[0-9a-f]{48}$/);
      expect(fresh).not.toBe(old);
      expect(await page.locator('#shown-install').innerText()).toContain(`FARSIGHT_AGENT_TOKEN=${fresh}\n`);
      await agentConfig(old).expect(401);
      await agentConfig(fresh).expect(200);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      expect(await page.locator('#shown-token').innerText()).toBe('');

      await page.getByRole('button', { name: 'Remove pi-at-home' }).click();
      const remove = page.getByRole('dialog', { name: 'Remove "pi-at-home"?' });
      expect(await remove.innerText()).toContain('Its agent stops working at once');
      await remove.getByRole('button', { name: 'Remove' }).click();
      await row(page, 'pi-at-home').waitFor({ state: 'detached' });
      await agentConfig(fresh).expect(401);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'locations-390');
      expect(errors.filter((e) => !e.includes('409') && !e.includes('422'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('a monitor checked from two places', () => {
  it('chooses its locations and quorum on the form, and its page shows each location as its agent reports', async () => {
    const loc = (
      await s.t.http
        .post('/api/v1/locations')
        .set('Cookie', `service_session=${await ownerSession(s)}`)
        .set('Origin', s.base)
        .send({ name: 'vps-ams' })
        .expect(201)
    ).body;
    expect(loc.state).toBe('never');
    const m = (
      await s.t.http
        .post('/api/v1/monitors')
        .set(admin)
        .send({ name: 'Nextcloud', kind: 'http', interval_s: 60, confirm_after: 1, http: { url: target.url } })
        .expect(201)
    ).body;
    expect(m.locations).toEqual(['local']);
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/monitors/${m.id}/edit`);
      await page.locator('#location-choices input[value="vps-ams"]').waitFor();
      expect(await page.locator('#location-choices input[value="local"]').isChecked()).toBe(true);
      await page.locator('#location-choices input[value="vps-ams"]').check();
      await page.getByLabel('Down when this many agree').fill('0');
      await page.click('#save');
      await page.locator('#where-fields .field-error').waitFor();
      expect(await page.locator('#m-quorum').getAttribute('aria-invalid')).toBe('true');
      expect((await s.t.http.get(`/api/v1/monitors/${m.id}`).set(admin).expect(200)).body.quorum).toBeNull();

      await page.getByLabel('Down when this many agree').fill('');
      expect(await page.locator('#m-quorum-hint').innerText()).toContain('a majority of the online ones');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'locations-monitor-form-1280');
      await Promise.all([page.waitForURL(`${s.base}/monitors/${m.id}`), page.click('#save')]);
      const saved = (await s.t.http.get(`/api/v1/monitors/${m.id}`).set(admin).expect(200)).body;
      expect(saved.locations).toEqual(['local', 'vps-ams']);
      expect(saved.quorum).toBeNull();

      // The page lists both places in the monitor's order, with the rule in words.
      await page.locator('#where-now:not([hidden])').waitFor();
      expect(await page.locator('#where-rows td:first-child').allInnerTexts()).toEqual([
        'local (this service)',
        'vps-ams',
      ]);
      // The agent reports a failure from its place: the page's table shows it beside local's.
      const token = (
        await s.t.http
          .post(`/api/v1/locations/${loc.id}/token`)
          .set('Cookie', `service_session=${await ownerSession(s)}`)
          .set('Origin', s.base)
          .send({})
          .expect(200)
      ).body.token as string;
      await s.t.http
        .post('/api/agent/results')
        .set(bearer(token))
        .send({
          agent: { version: '0.1.0', blind: false },
          results: [
            {
              seq: 1,
              monitor_id: m.id,
              at: new Date(s.t.clock.now() - 60_000).toISOString(),
              result: {
                outcome: 'up',
                latency_ms: 80,
                phases: null,
                status: 200,
                error: null,
                cert: null,
                detail: null,
              },
            },
            {
              seq: 2,
              monitor_id: m.id,
              at: new Date(s.t.clock.now()).toISOString(),
              result: {
                outcome: 'down',
                latency_ms: 1234,
                phases: null,
                status: 503,
                error: { code: 'status', message: 'answered 503' },
                cert: null,
                detail: null,
              },
            },
          ],
        })
        .expect(200)
        .expect((res) => expect(res.body).toMatchObject({ acked_seq: 2, ignored: [] }));
      // A minute up, then 20 s down so far: the location's own uptime (its rollups), 75 %.
      s.t.clock.advance(20_000);
      await page.reload();
      const ams = page.locator('#where-rows tr', { hasText: 'vps-ams' });
      await ams.waitFor();
      expect(await ams.locator('.status').innerText()).toBe('Down');
      expect(await ams.innerText()).toContain('answered 503');
      expect(await page.locator('#where-now thead th').allTextContents()).toEqual([
        'Location',
        'Status',
        'Latency',
        'Up 24 h',
        'Up 30 d',
        'Checked',
        'Error',
      ]);
      await ams.locator('td', { hasText: '75.0%' }).first().waitFor();
      expect(await ams.locator('td').allInnerTexts()).toEqual([
        'vps-ams',
        'Down',
        expect.any(String),
        '75.0%',
        '75.0%',
        expect.any(String),
        'answered 503',
      ]);
      expect(await page.locator('#where-rows tr').first().innerText()).toContain('local (this service)');
      expect(await page.locator('#where-rule').innerText()).toContain('a majority of the online ones');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'locations-monitor-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'locations-monitor-390');
      expect(errors.filter((e) => !e.includes('422'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
