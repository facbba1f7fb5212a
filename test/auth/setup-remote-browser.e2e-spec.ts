/**
 * First-run setup from another machine in Chromium (issue 33, item 1): no public URL configured
 * (so http://localhost:8080 is assumed), the page opened at the box's LAN name. The setup works,
 * and the page offers to save the address it is open at.
 */
import type { Browser } from 'playwright-core';
import { issueSetupLink } from '../../src/auth/setup/links';
import { totpAt } from '../../src/auth/password/totp';
import { launch, seriousAxeFindings, serve, Served } from '../support/browser';
import { OWNER } from '../support/app';

jest.setTimeout(120_000);

let browser: Browser;
let s: Served;

beforeAll(async () => {
  browser = await launch();
  s = await serve({ FARSIGHT_PUBLIC_URL: '' });
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
});

it('sets up the owner from the LAN address and saves that address as the public URL', async () => {
  expect(s.t.config.publicUrl).toBe('http://localhost:8080');
  const lan = `http://farsight.lan:${s.port}`;
  const link = await issueSetupLink(s.t.db, s.t.clock.now(), s.t.config.publicUrl);
  const token = link.url.split('/').pop() as string;
  const page = await browser.newPage();
  try {
    await page.goto(`${lan}/setup/${token}`);
    const offer = page.locator('#public-url');
    await offer.waitFor();
    expect((await offer.innerText()).replace(/\s+/g, ' ')).toContain(`Save ${lan} as Farsight's address`);
    expect(await page.getByLabel(`Save ${lan} as Farsight's address`).isChecked()).toBe(true);
    const secret = (await page.locator('#secret').innerText()).trim();
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByLabel('Code').fill(totpAt(secret, s.t.clock.now()));
    await page.screenshot({ path: '/tmp/setup-remote-offer.png', fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.locator('#done').waitFor();
    expect(s.t.config.publicUrl).toBe(lan);
    // The session made at setup works from this address (a change needs the public origin, now this one).
    const status = await page.evaluate(
      `fetch('/api/v1/keys', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'from the LAN', scope: 'read' }) }).then((r) => r.status)`,
    );
    expect(status).toBe(201);
  } finally {
    await page.close();
  }
});
