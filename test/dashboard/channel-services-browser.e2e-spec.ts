/**
 * The channel form's push and paging services in real Chromium: each kind is added through the
 * form with the values its help text says where to find, its test button makes the real API call
 * (to the services emulated on 127.0.0.1, harness/servers/service-apis.ts), a changed channel keeps
 * its masked token, a wrong value shows its field error; axe finds nothing serious and nothing
 * runs off a phone's screen. Screenshots go to test/artifacts/dashboard/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  CREDENTIALS,
  Service,
  ServiceApis,
  serviceApiEnv,
  serviceConfigs,
  startServiceApis,
} from '../../harness/servers/service-apis';
import {
  createOwnerAt,
  launch,
  ownerSession,
  seriousAxeFindings,
  serve,
  Served,
  signedInContext,
} from '../support/browser';

jest.setTimeout(180_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'dashboard');

/** The label of each kind's radio and the labels of its fields, as the form shows them. */
const FORM: Record<Service, { radio: RegExp; fields: Record<string, string> }> = {
  ntfy: { radio: /^ntfy/, fields: { server: 'Server', topic: 'Topic', token: 'Access token' } },
  gotify: { radio: /^Gotify/, fields: { server: 'Server', token: 'Application token' } },
  telegram: { radio: /^Telegram/, fields: { bot_token: 'Bot token', chat_id: 'Chat id', api_base: 'Bot API server' } },
  pushover: { radio: /^Pushover/, fields: { user_key: 'User key', app_token: 'Application token' } },
  matrix: { radio: /^Matrix/, fields: { homeserver: 'Homeserver', access_token: 'Access token', room_id: 'Room id' } },
  pagerduty: { radio: /^PagerDuty/, fields: { routing_key: 'Integration key' } },
  'home-assistant': {
    radio: /^Home Assistant/,
    fields: { url: 'Home Assistant URL', token: 'Long-lived access token', service: 'Notify action' },
  },
  apprise: { radio: /^Apprise/, fields: { url: 'Notify URL' } },
};

let browser: Browser;
let s: Served;
let apis: ServiceApis;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  apis = await startServiceApis();
  [browser, s] = await Promise.all([launch(), serve(serviceApiEnv(apis.origin))]);
  await createOwnerAt(s);
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await apis?.close();
});

async function open(width: number): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { context, page, errors };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const form = (page: Page) => page.locator('#channel-form');
/** A service field's input, found by its label's words (its id only tells same-named fields of kinds apart). */
async function fieldOf(page: Page, kind: Service, key: string) {
  const id = `cf-${kind}-${key.replace(/_/g, '-')}`;
  expect(await page.locator(`label[for="${id}"]`).textContent()).toContain(FORM[kind].fields[key]);
  return page.locator(`#${id}`);
}

it('adds each service kind through the form, with help for every field, and its test reaches the service', async () => {
  const { context, page, errors } = await open(1280);
  const configs = serviceConfigs(apis.origin);
  try {
    await page.goto(`${s.base}/channels`);
    await page.locator('#loading').waitFor({ state: 'hidden' });
    for (const kind of Object.keys(FORM) as Service[]) {
      await page.getByRole('button', { name: 'Add a channel' }).click();
      await page.getByRole('radio', { name: FORM[kind].radio }).check();
      await form(page).getByLabel('Name', { exact: true }).fill(`Phone ${kind}`);
      for (const key of Object.keys(FORM[kind].fields)) {
        const input = await fieldOf(page, kind, key);
        expect(await input.isVisible()).toBe(true);
        // Every field says where its value is found.
        const hint = await input.getAttribute('aria-describedby');
        expect((await page.locator(`#${hint}`).textContent())?.length).toBeGreaterThan(20);
        const value = configs[kind][key];
        if (value !== undefined) await input.fill(String(value));
      }
      if (kind === 'telegram') await shot(page, 'channels-form-telegram-1280');
      await page.getByRole('button', { name: 'Add the channel' }).click();
      await page.locator('.channel h3', { hasText: `Phone ${kind}` }).waitFor();
      const before = apis.of(kind).length;
      await page.getByRole('button', { name: `Send a test: Phone ${kind}` }).click();
      const answer = page.locator('.channel', { hasText: `Phone ${kind}` }).locator('.test-answer.ok-text');
      await answer.waitFor();
      expect(await answer.textContent()).toContain(`Delivered by ${kind}`);
      expect(apis.of(kind).length).toBeGreaterThan(before);
    }
    expect(await seriousAxeFindings(page)).toEqual([]);
    await shot(page, 'channels-services-1280');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('keeps a masked token when a channel is changed, and asks for it again when the server moves', async () => {
  const { context, page, errors } = await open(390);
  try {
    await page.goto(`${s.base}/channels`);
    await page.locator('#loading').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Change: Phone matrix' }).click();
    const token = await fieldOf(page, 'matrix', 'access_token');
    const room = await fieldOf(page, 'matrix', 'room_id');
    const homeserver = await fieldOf(page, 'matrix', 'homeserver');
    expect(await token.inputValue()).toBe('********');
    await room.fill('#not-a-room-id:example.org');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.locator('.field-error').first().waitFor();
    expect(await room.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(
      (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number,
    ).toBe(0);
    await shot(page, 'channels-form-matrix-error-390');
    await form(page).screenshot({ path: path.join(ARTIFACTS, 'channels-form-matrix-error-390-form.png') });
    await room.fill(CREDENTIALS.matrixRoom);
    await homeserver.fill('https://elsewhere.example.org');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.locator('.field-error').first().waitFor();
    expect(await token.getAttribute('aria-invalid')).toBe('true');
    await homeserver.fill(apis.origin);
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await form(page).waitFor({ state: 'hidden' });
    expect(errors.filter((e) => !e.includes('422'))).toEqual([]);
  } finally {
    await context.close();
  }
});
