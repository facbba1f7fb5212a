/**
 * Emails as a person sees them: the HTML part of a down email, of a 3-event batch, of the
 * owner's sign-in notice and of a password-reset email, and of the status page subscribers' mails
 * (confirmation, incident opened, resolved, maintenance announced),
 * opened in headless Chromium (Debian's, installed by scripts/test-deps.sh) at phone width, in
 * light and in dark mode; axe-core finds no serious or critical problem (contrast included) and
 * nothing runs off the side. Screenshots go to test/artifacts/email/ (git-ignored) to look at.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import type { AlertEvent, OutboundMessage } from '../../src/channels/channel-kind';
import { renderAlertEmail } from '../../src/channels/senders/email';
import { RenderedMail, renderOwnerMail, resetMail, signInNotice } from '../../src/mail/owner-mail';
import { confirmMail, noticeMail, renderSubscriberMail } from '../../src/subscribers/subscriber-mails';

const CHROMIUM =
  process.env.FARSIGHT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'email');
const AXE = require.resolve('axe-core/axe.min.js');
const PUBLIC = 'https://status.example.com';

const nas = {
  id: 3,
  name: 'NAS web UI',
  slug: 'nas-web-ui',
  group: 'Home',
  target: 'GET https://nas.lan/',
  url: 'https://nas.lan/',
  description: 'Synology admin page; if it is down, the backups stop too.',
  runbook_url: 'https://wiki.lan/runbooks/nas',
};

const downEvent: AlertEvent = {
  type: 'down',
  at: Date.UTC(2026, 10, 23, 11, 2),
  monitor: nas,
  message: 'NAS web UI is down: connection refused',
  duration_ms: 125_000,
  error: { code: 'refused', message: 'connection refused by 192.168.1.20:5001' },
};

const batch: AlertEvent[] = [
  downEvent,
  {
    type: 'down',
    at: Date.UTC(2026, 10, 23, 11, 2, 10),
    monitor: {
      id: 9,
      name: 'Home Assistant behind the reverse proxy on the garage Raspberry Pi',
      slug: 'ha',
      group: null,
      target:
        'GET https://home-assistant.really-long-internal-domain-name.example.net/api/health/check?token_free=yes&verbose=true',
      url: 'https://home-assistant.really-long-internal-domain-name.example.net/api/health/check?token_free=yes&verbose=true',
    },
    message: 'down',
    error: {
      code: 'status',
      message:
        'status 502 (expected 200-299): Bad Gateway from nginx/1.25.3 upstream_connect_timeout_exceeded_while_reading',
    },
  },
  {
    type: 'up',
    at: Date.UTC(2026, 10, 23, 11, 2, 15),
    monitor: { id: 4, name: 'Router', slug: 'router', group: 'Network', target: 'ping 192.168.1.1', url: null },
    message: 'Router is up again',
    duration_ms: 12 * 60_000,
  },
];

function alertEmail(message: OutboundMessage): RenderedMail {
  return renderAlertEmail(message, message.events, PUBLIC);
}

const at = Date.UTC(2026, 10, 23, 11, 2);
const emails: [string, RenderedMail][] = [
  ['down', alertEmail({ id: 'o1', events: [downEvent] })],
  ['batch', alertEmail({ id: 'o2', events: batch })],
  [
    'sign-in',
    renderOwnerMail(
      signInNotice({ method: 'passkey', ip: '2001:db8::1', device: 'Firefox on Linux', at, publicUrl: PUBLIC }),
    ),
  ],
  [
    'reset',
    renderOwnerMail(
      resetMail({
        url: `${PUBLIC}/reset/${'k'.repeat(43)}`,
        expiresAt: at + 3600_000,
        ip: '198.51.100.7',
        device: 'Safari on iOS',
        at,
        publicUrl: PUBLIC,
      }),
    ),
  ],
  // The status page's subscribers (docs/subscribers.md).
  ...(() => {
    const ctx = { pageTitle: 'Harbour Lab', origin: PUBLIC };
    const unsub = 'u'.repeat(43);
    return [
      ['subscriber-confirm', renderSubscriberMail(confirmMail(ctx, 'c'.repeat(43), at + 48 * 3_600_000))],
      [
        'subscriber-opened',
        renderSubscriberMail(noticeMail(ctx, { kind: 'opened', service: 'Nextcloud', started_at: at }, unsub)),
      ],
      [
        'subscriber-resolved',
        renderSubscriberMail(
          noticeMail(
            ctx,
            { kind: 'resolved', service: 'Nextcloud', started_at: at, ended_at: at + 42 * 60_000 },
            unsub,
          ),
        ),
      ],
      [
        'subscriber-maintenance',
        renderSubscriberMail(
          noticeMail(
            ctx,
            {
              kind: 'maintenance',
              title: 'New disks in the NAS',
              description: 'The NAS gets two new disks.\n\nFiles and photos are away for about an hour.',
              starts_at: at + 24 * 3_600_000,
              ends_at: at + 25 * 3_600_000,
              services: ['Nextcloud', 'Photos', 'Backups of the garage Raspberry Pi with a long name'],
            },
            unsub,
          ),
        ),
      ],
    ] as [string, RenderedMail][];
  })(),
];

interface AxeResults {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

let browser: Browser;

beforeAll(async () => {
  if (!CHROMIUM) throw new Error('Chromium is missing: run scripts/test-deps.sh (apt-get install chromium)');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

describe.each(emails)('the %s email', (name, { html, subject }) => {
  it.each(['light', 'dark'] as const)(
    'reads well in %s mode on a 390 px phone: no serious axe finding, nothing wider than the screen',
    async (scheme) => {
      const page = await browser.newPage({
        viewport: { width: 390, height: 844 },
        colorScheme: scheme,
        deviceScaleFactor: 1,
      });
      try {
        await page.setContent(html, { waitUntil: 'load' });
        await page.addScriptTag({ path: AXE });
        // Expressions as strings: the project compiles without DOM types.
        const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults;
        const serious = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(serious).toEqual([]);
        const width = await page.evaluate('document.documentElement.scrollWidth');
        expect(width).toBeLessThanOrEqual(390);
        expect(await page.title()).toBe(subject);
        // Dark mode paints a dark page; light mode a light one (the page's own colours, not the client's).
        const bg = (await page.evaluate('getComputedStyle(document.body).backgroundColor')) as string;
        expect(luminance(bg) < 0.2).toBe(scheme === 'dark');
        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${scheme}-390.png`), fullPage: true });
      } finally {
        await page.close();
      }
    },
  );

  it('lays out on a desktop width too', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 }, colorScheme: 'light' });
    try {
      await page.setContent(html, { waitUntil: 'load' });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(900);
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}-light-900.png`), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

/** Relative luminance (0 black, 1 white) of a CSS rgb() colour. */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
