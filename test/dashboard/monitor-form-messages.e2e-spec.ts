/**
 * The monitor form's mqtt and grpc fields in Debian's Chromium: monitors made through the form are stored
 * with the broker, login, topic, text and JSON rules chosen, a bad topic shows its field error,
 * and on edit the password stays masked and is kept, and the JSON rules come back as rows.
 * Screenshots go to test/artifacts/dashboard/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
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

it('makes an mqtt monitor with a topic, a text and a JSON rule, and keeps its password on edit', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.base}/monitors/new`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    await page.getByRole('radio', { name: /^MQTT/ }).check();
    await page.getByLabel(/^Broker/).fill('mqtts://broker.home.lan');
    expect(await page.locator('#m-name').inputValue()).toBe('broker.home.lan');
    await page.getByLabel(/^User name/).fill('ups');
    await page
      .getByLabel(/^Password/)
      .and(page.locator('#mqtt-password'))
      .fill('hunter2');
    await page.getByLabel('TLS').and(page.locator('#mqtt-tls')).selectOption('verify');
    await page.getByLabel(/^Topic/).fill('ups/#/status');
    await page.getByLabel(/^Message must contain/).fill('OL');
    await page.getByRole('button', { name: 'Add a JSON rule' }).click();
    await page.locator('[name="mqtt.json.0.path"]').fill('$.charge');
    await page.locator('[name="mqtt.json.0.op"]').selectOption('>');
    await page.locator('[name="mqtt.json.0.value"]').fill('50');
    await page.getByRole('button', { name: 'Add the monitor' }).click();
    await page.getByText('# stands alone as the last level (home/#)').waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-mqtt-error-1280.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);

    await page.getByLabel(/^Topic/).fill('ups/+/status');
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-mqtt-1280.png'), fullPage: true });
    await page.getByRole('button', { name: 'Add the monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const id = /\/monitors\/(\d+)$/.exec(page.url())![1];
    expect((await stored(id)).mqtt).toEqual({
      url: 'mqtts://broker.home.lan',
      username: 'ups',
      password: '********',
      tls: 'verify',
      topic: 'ups/+/status',
      expect: 'OL',
      json: [{ path: '$.charge', op: '>', value: 50 }],
    });

    await page.goto(`${s.base}/monitors/${id}/edit`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    const url = page.locator('#mqtt-url');
    for (let i = 0; i < 100 && (await url.inputValue()) !== 'mqtts://broker.home.lan'; i++)
      await page.waitForTimeout(50);
    expect(await page.locator('#mqtt-password').inputValue()).toBe('********');
    expect(await page.locator('[name="mqtt.json.0.path"]').inputValue()).toBe('$.charge');
    await page.getByLabel(/^Message must contain/).fill('OB');
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const after = await stored(id);
    expect(after.mqtt).toMatchObject({ expect: 'OB', password: '********', json: [{ path: '$.charge' }] });
    expect(JSON.stringify(after)).not.toContain('hunter2');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('makes a grpc monitor with a service and secret metadata, kept masked when edited', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.base}/monitors/new?kind=grpc`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    await page.getByLabel(/^Target/).fill('grpc://api.home.lan:50051');
    await page.getByLabel(/^Service/).fill('shop.Cart');
    await page.getByRole('button', { name: 'Add metadata' }).click();
    await page.locator('[name="grpc.metadata.0.name"]').fill('authorization');
    await page.locator('[name="grpc.metadata.0.value"]').fill('Bearer hunter2');
    await page.getByRole('button', { name: 'Add the monitor' }).click();
    await page.getByText('must be host:port, e.g. grpc.home.lan:50051').waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-grpc-error-390.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByLabel(/^Target/).fill('api.home.lan:50051');
    expect(await page.locator('#m-name').inputValue()).toBe('api.home.lan');
    await page.getByLabel('TLS').and(page.locator('#grpc-tls')).selectOption('verify');
    await page.getByRole('button', { name: 'Add the monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const id = /\/monitors\/(\d+)$/.exec(page.url())![1];
    expect((await stored(id)).grpc).toEqual({
      target: 'api.home.lan:50051',
      service: 'shop.Cart',
      tls: 'verify',
      metadata: [{ name: 'authorization', value: '********', secret: true }],
    });

    await page.goto(`${s.base}/monitors/${id}/edit`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    const target = page.locator('#grpc-target');
    for (let i = 0; i < 100 && (await target.inputValue()) !== 'api.home.lan:50051'; i++) await page.waitForTimeout(50);
    expect(await page.locator('[name="grpc.metadata.0.value"]').inputValue()).toBe('********');
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-grpc-edit-390.png'), fullPage: true });
    await page.getByLabel(/^Service/).fill('');
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const after = await stored(id);
    expect(after.grpc).toMatchObject({ service: '', metadata: [{ name: 'authorization', value: '********' }] });
    expect(JSON.stringify(after)).not.toContain('hunter2');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
