/**
 * How the sign-in pages look, in every state a person meets: light and dark, on a 390 px phone
 * and a wide screen. axe-core finds nothing serious or critical (contrast included), nothing runs
 * off the side, dark mode paints a dark page, and the content security policy refuses nothing
 * the page needs. Screenshots go to test/artifacts/auth-pages/
 * (git-ignored), to look at after a change.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { issueEnrollLink } from '../../src/auth/passkeys/enroll-link';
import { EventsService } from '../../src/events/events.service';
import { OWNER } from '../support/app';
import {
  createOwnerAt,
  launch,
  ownerSession,
  seriousAxeFindings,
  serve,
  Served,
  signedInContext,
} from './pages-browser-support';

jest.setTimeout(120_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'auth-pages');
const WIDTHS = [390, 1280];

let browser: Browser;
let s: Served;
let empty: Served;
let enrollPath: string;

interface PageState {
  name: string;
  /** Path on the served app, or a full URL from the base (for another host name). */
  open: () => string;
  session?: 'fresh' | 'stale';
  noOwner?: boolean;
  /** Brings the page into the state after it loaded. */
  then?: (page: Page) => Promise<void>;
  /** Waits for this before the shot (the script has shown what it shows). */
  ready: string;
}

const STATES: PageState[] = [
  { name: 'signin', open: () => '/signin', ready: '#password-form:not([hidden])' },
  {
    name: 'signin-missing-fields',
    open: () => '/signin',
    ready: '#password-form .form-error:not([hidden])',
    then: async (page) => page.getByRole('button', { name: 'Continue' }).click(),
  },
  {
    name: 'signin-code',
    open: () => '/signin',
    ready: '#code-form:not([hidden])',
    then: async (page) => {
      await page.getByLabel('Email').fill(OWNER.email);
      await page.getByLabel('Password').fill(OWNER.password);
      await page.getByRole('button', { name: 'Continue' }).click();
    },
  },
  {
    name: 'signin-code-wrong',
    open: () => '/signin',
    ready: '#code-form .form-error:not([hidden])',
    then: async (page) => {
      await page.getByLabel('Email').fill(OWNER.email);
      await page.getByLabel('Password').fill(OWNER.password);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill('aaaaa-bbbbb');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    },
  },
  {
    name: 'signin-lan-http',
    open: () => `http://farsight.lan:${s.port}/signin`,
    ready: '#passkey-unavailable:not([hidden])',
  },
  { name: 'signin-not-set-up', open: () => '/signin', noOwner: true, ready: '#not-set-up:not([hidden])' },
  { name: 'forgot', open: () => '/forgot', ready: '#forgot-form:not([hidden])' },
  {
    name: 'forgot-sent',
    open: () => '/forgot',
    ready: '#sent:not([hidden])',
    then: async (page) => {
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByRole('button', { name: 'Email me a reset link' }).click();
    },
  },
  { name: 'reset', open: () => `/reset/${'r'.repeat(43)}`, ready: '#reset-form:not([hidden])' },
  {
    name: 'reset-recovery-missing',
    open: () => `/reset/${'r'.repeat(43)}`,
    ready: '#reset-form .form-error:not([hidden])',
    then: async (page) => {
      await page.getByLabel('New password').fill('a new long password');
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    },
  },
  { name: 'enroll', open: () => enrollPath, ready: '#enroll-form:not([hidden])' },
  {
    name: 'enroll-lan-http',
    open: () => `http://farsight.lan:${s.port}${enrollPath}`,
    ready: '#passkey-unavailable:not([hidden])',
  },
  { name: 'enroll-invalid', open: () => `/enroll/${'x'.repeat(32)}`, ready: '#invalid:not([hidden])' },
  { name: 'home', open: () => '/account', session: 'fresh', ready: '#add-passkey:not([hidden])' },
  {
    name: 'home-add',
    open: () => '/account',
    session: 'fresh',
    ready: '#add-form:not([hidden])',
    then: async (page) => page.getByRole('button', { name: 'Add a passkey' }).click(),
  },
  {
    name: 'home-step-up',
    open: () => '/account',
    session: 'stale',
    ready: '#step-up-form:not([hidden])',
    then: async (page) => {
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByRole('button', { name: 'Create the passkey' }).click();
    },
  },
];

beforeAll(async () => {
  browser = await launch();
  [s, empty] = await Promise.all([serve(), serve()]);
  await createOwnerAt(s);
  const now = s.t.clock.now();
  await s.t.db.query(
    `INSERT INTO passkeys (credential_id, public_key, counter, label, created_at, last_used_at)
     VALUES ('a1', x'00', 0, 'MacBook Air (Touch ID)', ?, ?), ('a2', x'00', 0, 'YubiKey 5C NFC on the keyring', ?, NULL)`,
    [now - 86_400_000 * 12, now - 3600_000, now - 86_400_000 * 3],
  );
  enrollPath = new URL((await issueEnrollLink(s.t.db, s.t.app.get(EventsService), now, s.t.config.publicUrl)).url)
    .pathname;
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await empty?.t.close();
});

function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => Number(v) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe.each(STATES)('the $name page', (state) => {
  it.each(['light', 'dark'] as const)('reads well in %s mode on a phone and a wide screen', async (scheme) => {
    const served = state.noOwner ? empty : s;
    let cookie: string | null = null;
    if (state.session) {
      cookie = await ownerSession(served);
      if (state.session === 'stale')
        await served.t.db.query('UPDATE sessions SET fresh_until = 0 WHERE id = (SELECT MAX(id) FROM sessions)');
    }
    for (const width of WIDTHS) {
      const opts = { viewport: { width, height: 860 }, colorScheme: scheme, deviceScaleFactor: 1 };
      const context = cookie ? await signedInContext(browser, served, cookie, opts) : await browser.newContext(opts);
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      try {
        const target = state.open();
        await page.goto(target.startsWith('http') ? target : `${served.base}${target}`);
        if (state.then) await state.then(page);
        await page.locator(state.ready).waitFor();
        if (width === 390) expect(await seriousAxeFindings(page)).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        const bg = (await page.evaluate('getComputedStyle(document.body).backgroundColor')) as string;
        expect(luminance(bg) < 0.2).toBe(scheme === 'dark');
        await page.screenshot({ path: path.join(ARTIFACTS, `${state.name}-${scheme}-${width}.png`), fullPage: true });
        // The page did all of that under its own policy: nothing it needed was refused.
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
