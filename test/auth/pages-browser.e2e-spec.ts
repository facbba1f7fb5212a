/**
 * The sign-in pages as a person uses them, in Debian's Chromium: a passkey added on the landing
 * page and used to sign in (DevTools' virtual authenticator, a platform authenticator with user
 * verification), a break-glass enrolment link, password + authenticator code and a recovery
 * code on the real pages, errors said in words, and the notice a plain-http LAN address gets
 * instead of a passkey button that cannot work.
 */
import type { Browser, Page } from 'playwright-core';
import { issueEnrollLink } from '../../src/auth/passkeys/enroll-link';
import { sha256 } from '../../src/common/access/tokens';
import { totpAt } from '../../src/auth/password/totp';
import { EventsService } from '../../src/events/events.service';
import { OWNER } from '../support/app';
import {
  createOwnerAt,
  launch,
  ownerSession,
  serve,
  Served,
  signedInContext,
  virtualAuthenticator,
} from './pages-browser-support';

jest.setTimeout(120_000);

let browser: Browser;
let s: Served;
let owner: { secret: string; codes: string[] };

beforeAll(async () => {
  browser = await launch();
  s = await serve();
  owner = await createOwnerAt(s);
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
});

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();
}

async function passkeyRows(label?: string): Promise<{ label: string; counter: number; last_used_at: number | null }[]> {
  return label === undefined
    ? s.t.db.query('SELECT label, counter, last_used_at FROM passkeys ORDER BY id')
    : s.t.db.query('SELECT label, counter, last_used_at FROM passkeys WHERE label = ?', [label]);
}

/** Adds a passkey through the account page of the dashboard. */
async function addPasskeyOnLandingPage(page: Page, label: string): Promise<void> {
  await page.goto(`${s.base}/account`);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Name for the new passkey').fill(label);
  await page.getByRole('button', { name: 'Create the passkey' }).click();
  await page.locator('.passkey-label', { hasText: label }).waitFor();
}

it('adds a passkey on the landing page, signs out, and signs in with it from the sign-in page', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s));
  const page = await context.newPage();
  const { cdp, id } = await virtualAuthenticator(context, page);
  try {
    await page.goto(`${s.base}/account`);
    expect(await text(page, '.who')).toContain('You are signed in as owner@example.com with the first-run setup link');
    await addPasskeyOnLandingPage(page, 'Test laptop');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: id });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].rpId).toBe('localhost');
    expect(await passkeyRows()).toEqual([
      { label: 'Test laptop', counter: credentials[0].signCount, last_used_at: null },
    ]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${s.base}/signin`);
    // Passkey first: the big button, and the password form's button is the secondary one.
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${s.base}/`);
    await page.goto(`${s.base}/account`);
    expect(await text(page, '.who')).toContain('with a passkey');
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId: id });
    const [row] = await passkeyRows('Test laptop');
    expect(row.counter).toBe(after.credentials[0].signCount);
    expect(row.last_used_at).toBe(s.t.clock.now());
  } finally {
    await context.close();
  }
});

it('says in words why a passkey was refused: by the server (a cloned counter), or by the authenticator', async () => {
  const context = await signedInContext(browser, s, await ownerSession(s));
  const page = await context.newPage();
  const { cdp, id } = await virtualAuthenticator(context, page);
  try {
    await addPasskeyOnLandingPage(page, 'Cloned key');
    // The server has seen this passkey count far higher: the next signature looks like a clone's.
    await s.t.db.query("UPDATE passkeys SET counter = 1000 WHERE label = 'Cloned key'");
    await context.clearCookies();
    await page.goto(`${s.base}/signin`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const error = page.locator('#passkey-error');
    await error.waitFor();
    expect(await error.innerText()).toBe(
      "The passkey was not accepted: the authenticator's signature counter went backwards, which a copied (cloned) passkey does.",
    );
    expect(page.url()).toBe(`${s.base}/signin`);
    expect((await passkeyRows('Cloned key'))[0].counter).toBe(1000);

    // The authenticator cannot verify the person (no PIN, no biometric): the browser gives up.
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId: id, isUserVerified: false });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.locator('#passkey-error', { hasText: 'cancelled or timed out' }).waitFor();
    expect(page.url()).toBe(`${s.base}/signin`);
  } finally {
    await context.close();
  }
});

it('enrols a passkey with a break-glass link and lands signed in', async () => {
  const url = (await issueEnrollLink(s.t.db, s.t.app.get(EventsService), s.t.clock.now(), s.t.config.publicUrl)).url;
  const context = await browser.newContext();
  const page = await context.newPage();
  await virtualAuthenticator(context, page);
  try {
    await page.goto(url);
    await page.getByLabel(/Name for this passkey/).fill('Spare phone');
    await page.getByRole('button', { name: 'Create the passkey and sign in' }).click();
    await page.waitForURL(`${s.base}/`);
    await page.goto(`${s.base}/account`);
    expect(await text(page, '.who')).toContain('with a break-glass enrolment link');
    expect(await text(page, '.passkeys')).toContain('Spare phone');
    // Used: the same link now says so.
    await page.goto(url);
    await page.locator('#invalid').waitFor();
    expect(await text(page, '#invalid')).toContain('This enrolment link is not valid');
  } finally {
    await context.close();
  }
});

it('signs in with email, password and the authenticator code; a wrong password is said in words', async () => {
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
    // The code of the next 30 s step: the setup's code was used, and a used code never works again.
    s.t.clock.advance(30_000);
    await page.getByLabel('Authenticator code').fill(totpAt(owner.secret, s.t.clock.now()));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${s.base}/`);
    await page.goto(`${s.base}/account`);
    expect(await text(page, '.who')).toContain('with password and authenticator code');
  } finally {
    await context.close();
  }
});

it('signs in with email, password and a recovery code', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${s.base}/signin`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(owner.codes[0].toUpperCase());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${s.base}/`);
    await page.goto(`${s.base}/account`);
    expect(await text(page, '.who')).toContain('with password and a recovery code');
  } finally {
    await context.close();
  }
});

it('over plain http on a LAN name, says why passkeys cannot work and keeps password sign-in', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`http://farsight.lan:${s.port}/signin`);
    const notice = page.locator('#passkey-unavailable');
    await notice.waitFor();
    expect(await text(page, '#passkey-unavailable')).toContain(
      'Passkeys need a secure connection. This page is open over plain http at farsight.lan:',
    );
    expect(await text(page, '#passkey-unavailable')).toContain('reverse proxy');
    expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).isVisible()).toBe(false);
    expect(await page.getByLabel('Email').isVisible()).toBe(true);
  } finally {
    await context.close();
  }
});

it('at another address than FARSIGHT_PUBLIC_URL, points to the public address', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${s.port}/signin`);
    await page.locator('#passkey-unavailable').waitFor();
    expect(await text(page, '#passkey-unavailable')).toContain(
      `Passkeys work only at Farsight's own address, ${s.base}, and this page is open at http://127.0.0.1:${s.port}.`,
    );
    expect(await page.getByRole('link', { name: `Open this page at ${s.base}` }).getAttribute('href')).toBe(
      `${s.base}/signin`,
    );
  } finally {
    await context.close();
  }
});

it('asks for a reset link, and sets a new password with a reset link and the authenticator code', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${s.base}/forgot`);
    await page.getByLabel('Email').fill('stranger@example.com');
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await page.locator('#sent').waitFor();
    expect(await text(page, '#sent')).toContain(
      "If stranger@example.com is the owner's address, a reset link is on its way. It works for one hour.",
    );

    // The link the reset mail carries (this server has no mail provider): a live reset token.
    const token = 'k'.repeat(43);
    const now = s.t.clock.now();
    await s.t.db.query(
      "INSERT INTO link_tokens (purpose, token_hash, created_at, expires_at) VALUES ('reset', ?, ?, ?)",
      [sha256(token), now, now + 3600_000],
    );
    await page.goto(`${s.base}/reset/${token}`);
    await page.getByLabel('New password').fill('a brand new passphrase');
    s.t.clock.advance(30_000);
    await page.getByLabel('Authenticator code').fill(totpAt(owner.secret, s.t.clock.now()));
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await page.waitForURL(`${s.base}/`);
    await page.goto(`${s.base}/account`);
    expect(await text(page, '.who')).toContain('with a password reset');

    // Spent: the same link again is refused in words.
    await page.goto(`${s.base}/reset/${token}`);
    await page.getByLabel('New password').fill('another new passphrase');
    s.t.clock.advance(30_000);
    await page.getByLabel('Authenticator code').fill(totpAt(owner.secret, s.t.clock.now()));
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await page.locator('#reset-form .form-error').waitFor();
    expect(await text(page, '#reset-form .form-error')).toBe('Wrong code, or this reset link was used or has expired.');
  } finally {
    await context.close();
  }
});
