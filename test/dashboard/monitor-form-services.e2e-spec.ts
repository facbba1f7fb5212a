/**
 * The monitor form's service kinds (issue 38) in Debian's Chromium: an smtp monitor and a docker
 * monitor made through the form are stored with the settings chosen, and shown again when edited;
 * the docker fields link to the docker group's warning, which exists in the served docs.
 * Screenshots go to test/artifacts/dashboard/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { bearer } from '../support/app';
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

jest.setTimeout(120_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'dashboard');
let browser: Browser;
let s: Served;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  [browser, s] = await Promise.all([launch(), serve()]);
  await createOwnerAt(s);
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
});

async function stored(id: string): Promise<Record<string, unknown>> {
  return (
    await s.t.http
      .get(`/api/v1/monitors/${id}`)
      .set(bearer(await keyAt(s, 'read')))
      .expect(200)
  ).body;
}

async function save(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Add the monitor' }).click();
  await page.waitForURL(/\/monitors\/\d+$/);
  return /\/monitors\/(\d+)$/.exec(page.url())![1];
}

async function edit(page: Page, id: string, filled: string, value: string): Promise<void> {
  await page.goto(`${s.base}/monitors/${id}/edit`);
  await page.locator('#monitor-form:not([hidden])').waitFor();
  // The form is filled from GET /monitors/{id} after it shows.
  for (let i = 0; i < 100 && (await page.locator(filled).inputValue()) !== value; i++) await page.waitForTimeout(50);
}

it('makes an smtp monitor with implicit TLS and shows it again when edited', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.base}/monitors/new`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    await page.getByRole('radio', { name: /^SMTP/ }).check();
    expect(await page.locator('#smtp-port').inputValue()).toBe('587');
    await page.getByLabel('Host').and(page.locator('#smtp-host')).fill('mail.home.lan');
    // The name follows the host until the owner types one.
    expect(await page.locator('#m-name').inputValue()).toBe('mail.home.lan');
    await page.getByLabel('TLS').and(page.locator('#smtp-tls')).selectOption('implicit');
    await page.locator('#smtp-port').fill('465');
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-smtp-1280.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    const id = await save(page);
    expect((await stored(id)).smtp).toEqual({
      host: 'mail.home.lan',
      port: 465,
      tls: 'implicit',
      tls_verify: true,
      tls_warn_days: 14,
    });
    expect((await stored(id)).target).toBe('smtp mail.home.lan:465 (implicit)');
    await edit(page, id, '#smtp-host', 'mail.home.lan');
    expect(await page.locator('#smtp-tls').inputValue()).toBe('implicit');
    expect(await page.locator('#smtp-port').inputValue()).toBe('465');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('makes a docker monitor, shows the field errors of a bad endpoint, and links to the docker group warning', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.base}/monitors/new?kind=docker`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    expect(await page.locator('#docker-endpoint').inputValue()).toBe('unix:///var/run/docker.sock');
    await page.getByLabel(/^Container/).fill('jellyfin');
    await page.locator('#docker-endpoint').fill('http://nas.lan:2375');
    await page.getByRole('button', { name: 'Add the monitor' }).click();
    await page.getByText('must be unix:///path/to/docker.sock, tcp://host:port or https://host:port').waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-docker-error-390.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.locator('#docker-endpoint').fill('tcp://nas.lan:2375');
    await page.getByRole('checkbox', { name: /^Only healthy is up/ }).uncheck();
    const id = await save(page);
    expect((await stored(id)).docker).toEqual({
      container: 'jellyfin',
      endpoint: 'tcp://nas.lan:2375',
      require_healthy: false,
    });
    await edit(page, id, '#docker-container', 'jellyfin');
    expect(await page.locator('[name="docker.require_healthy"]').isChecked()).toBe(false);

    const link = page.getByRole('link', { name: 'the docker group' });
    const href = await link.getAttribute('href');
    expect(href).toBe('/docs/checks#the-docker-group');
    const docs = await page.request.get(`${s.base}/docs/checks`);
    expect(await docs.text()).toContain('id="the-docker-group"');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('makes a redis monitor whose password is masked, kept when the form is saved again, and never shown', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.base}/monitors/new?kind=redis`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    await page.getByLabel(/^URL/).and(page.locator('#redis-url')).fill('redis://cache.home.lan:6379/1');
    expect(await page.locator('#m-name').inputValue()).toBe('cache.home.lan');
    await page
      .getByLabel(/^Password/)
      .and(page.locator('#redis-password'))
      .fill('hunter2');
    await page.getByLabel('TLS').and(page.locator('#redis-tls')).selectOption('verify');
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-redis-1280.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    const id = await save(page);
    expect((await stored(id)).redis).toEqual({
      url: 'redis://cache.home.lan:6379/1',
      password: '********',
      tls: 'verify',
    });
    await edit(page, id, '#redis-url', 'redis://cache.home.lan:6379/1');
    expect(await page.locator('#redis-password').inputValue()).toBe('********');
    await page.locator('#redis-url').fill('redis://cache.home.lan:6379/2');
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const after = await stored(id);
    expect(after.redis).toEqual({ url: 'redis://cache.home.lan:6379/2', password: '********', tls: 'verify' });
    expect(JSON.stringify(after)).not.toContain('hunter2');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('makes a postgres monitor with its query, and shows the field error of a query that writes', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.base}/monitors/new?kind=postgres`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    expect(await page.locator('#postgres-query').inputValue()).toBe('SELECT 1');
    await page.getByLabel(/^URL/).and(page.locator('#postgres-url')).fill('postgres://monitor:pw@db.home.lan/app');
    await page
      .getByLabel(/^Query/)
      .and(page.locator('#postgres-query'))
      .fill('DELETE FROM sessions');
    await page.getByRole('button', { name: 'Add the monitor' }).click();
    await page.getByText('must be a statement that only reads').waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-postgres-error-1280.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page
      .getByLabel(/^Query/)
      .and(page.locator('#postgres-query'))
      .fill('SELECT count(*) FROM sessions WHERE expires > now()');
    const id = await save(page);
    expect((await stored(id)).postgres).toEqual({
      url: 'postgres://monitor@db.home.lan/app',
      password: '********',
      query: 'SELECT count(*) FROM sessions WHERE expires > now()',
      tls: 'off',
    });
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
