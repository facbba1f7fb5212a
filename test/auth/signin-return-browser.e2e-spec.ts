/**
 * Sign-in as a first-time owner meets it, in Chromium (issue 33, items 9 and 7): a page asked for
 * while signed out is where signing in returns (a same-site path only); the password step does not
 * talk about a code; an expired sign-in says so in the API's words; and the channel form warns on
 * the email kind when the server has no mail provider.
 */
import type { Browser, Page } from 'playwright-core';
import { totpAt } from '../../src/auth/password/totp';
import { OWNER } from '../support/app';
import {
  createOwnerAt,
  launch,
  ownerSession,
  seriousAxeFindings,
  serve,
  Served,
  signedInContext,
} from '../support/browser';

jest.setTimeout(120_000);

let browser: Browser;
let s: Served;
let owner: { secret: string };

beforeAll(async () => {
  [browser, s] = await Promise.all([launch(), serve()]);
  owner = await createOwnerAt(s);
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
});

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();
}

/** Email and password, then the code of the next 30 s step (a used code never works again). */
async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  s.t.clock.advance(30_000);
  await page.getByLabel('Authenticator code').fill(totpAt(owner.secret, s.t.clock.now()));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

it('returns to the page that was asked for after signing in', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${s.base}/timeline?kind=sign_in`);
    expect(page.url()).toBe(`${s.base}/signin?next=${encodeURIComponent('/timeline?kind=sign_in')}`);
    await signIn(page);
    await page.waitForURL(`${s.base}/timeline?kind=sign_in`);
  } finally {
    await context.close();
  }
});

it.each([
  ['a protocol-relative URL', '//evil.example/'],
  ['a backslash path', '/\\evil.example/'],
  ['an absolute URL', 'http://evil.example/'],
])('goes to the overview instead of %s', async (_, next) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${s.base}/signin?next=${encodeURIComponent(next)}`);
    expect(await page.evaluate('document.body.dataset.next')).toBe('/');
    await signIn(page);
    await page.waitForURL(`${s.base}/`);
  } finally {
    await context.close();
  }
});

it('does not mention a code before one is asked, and says when the sign-in has expired', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${s.base}/signin`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#password-form .form-error').waitFor();
    expect(await text(page, '#password-form .form-error')).toBe('Wrong email or password.');

    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Authenticator code').waitFor();
    // The ticket of the password step lasts 5 minutes.
    s.t.clock.advance(5 * 60_000 + 30_000);
    await page.getByLabel('Authenticator code').fill(totpAt(owner.secret, s.t.clock.now()));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('#code-form .form-error').waitFor();
    expect(await text(page, '#code-form .form-error')).toBe(
      'The code is not right, or this sign-in has expired (5 minutes): check the code, or start again with your password.',
    );
    await page.screenshot({ path: '/tmp/signin-expired.png' });
  } finally {
    await context.close();
  }
});

it('warns on the email kind of the channel form that no mail provider is configured', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`${s.base}/channels`);
    await page.locator('#loading').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Add a channel' }).click();
    const warning = page.locator('#cf-mail-off');
    await warning.waitFor();
    expect(await text(page, '#cf-mail-off')).toBe(
      'No mail provider is configured, so email channels cannot send yet. Set FARSIGHT_SMTP (and FARSIGHT_MAIL_FROM, the sender) on the server and restart Farsight (how).',
    );
    await page.screenshot({ path: '/tmp/channels-mail-off.png' });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByRole('radio', { name: /^Webhook/ }).check();
    expect(await warning.isVisible()).toBe(false);
  } finally {
    await context.close();
  }
});

it('does not warn when a mail provider is configured', async () => {
  const withMail = await serve({ FARSIGHT_SMTP: 'smtp://127.0.0.1:2525' });
  await createOwnerAt(withMail);
  const context = await signedInContext(browser, withMail, await ownerSession(withMail));
  const page = await context.newPage();
  try {
    await page.goto(`${withMail.base}/channels`);
    await page.locator('#loading').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Add a channel' }).click();
    await page.getByLabel('Recipients (one address a line, up to 5)').waitFor();
    expect(await page.locator('#cf-mail-off').isVisible()).toBe(false);
  } finally {
    await context.close();
    await withMail.t.close();
  }
});
