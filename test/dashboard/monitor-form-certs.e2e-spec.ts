/**
 * The monitor form's certificate fields (issue 33, must-fix 10), in Debian's Chromium: a tls
 * monitor made with "Verify the certificate" off and a pinned fingerprint pasted as openssl
 * prints it is stored that way (the pin in its one form) and shown again when edited; the http
 * form has the pin too. Screenshots go to test/artifacts/dashboard/.
 */
import { X509Certificate } from 'node:crypto';
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
import { farmCerts } from '../../harness/servers/certs';

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

it('makes a tls monitor that accepts a self-signed certificate by its pin, and shows both choices again when edited', async () => {
  const pin = new X509Certificate(farmCerts().selfSigned.cert).fingerprint256;
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.base}/monitors/new`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    // The http form offers the pin among its connection settings.
    expect(await page.locator('#http-pin').count()).toBe(1);
    await page.getByRole('radio', { name: /^TLS/ }).check();
    const verify = page
      .getByRole('checkbox', { name: /^Verify the certificate/ })
      .and(page.locator('[name="tls.tls_verify"]'));
    expect(await verify.isChecked()).toBe(true);
    await page.locator('#tls-host').fill('127.0.0.1');
    await page.locator('#m-name').fill('Router admin');
    await verify.uncheck();
    await page
      .getByLabel(/^Pinned certificate/)
      .and(page.locator('#tls-pin'))
      .fill(`SHA256 Fingerprint=${pin.toLowerCase()}`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'monitor-form-tls-pin-1280.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Add the monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const id = /\/monitors\/(\d+)$/.exec(page.url())![1];

    const stored = (
      await s.t.http
        .get(`/api/v1/monitors/${id}`)
        .set(bearer(await keyAt(s, 'read')))
        .expect(200)
    ).body;
    expect(stored.tls).toMatchObject({ host: '127.0.0.1', tls_verify: false, cert_sha256: pin });

    await page.goto(`${s.base}/monitors/${id}/edit`);
    await page.locator('#monitor-form:not([hidden])').waitFor();
    // The form is filled from GET /monitors/{id} after it shows.
    for (let i = 0; i < 100 && (await page.locator('#tls-pin').inputValue()) !== pin; i++)
      await page.waitForTimeout(50);
    expect(await page.locator('#tls-pin').inputValue()).toBe(pin);
    expect(await page.locator('[name="tls.tls_verify"]').isChecked()).toBe(false);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
