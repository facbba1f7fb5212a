/**
 * The mail path against real SMTP servers on 127.0.0.1 (smtp-server): the primary provider, the
 * fallback when the primary fails in each way, both failing, and what a result may say.
 */
import { createMailTransport, MailTransportOptions } from '../../src/mail/mail-transport';
import { farmCerts } from '../../harness/servers/certs';
import {
  closedPort,
  decodeSubject,
  headersOf,
  partOf,
  SmtpBehaviour,
  SmtpServer,
  startSilentServer,
  startSmtp,
} from '../../harness/servers/smtp-farm';

const FROM = 'Farsight <alerts@farsight.test>';
const LOGIN = { user: 'relay-user', pass: 'p@ss:word/with%odd chars' };
const fast: MailTransportOptions = { timeouts: { connectionMs: 1000, greetingMs: 400, socketMs: 1000, totalMs: 3000 } };

const mail = (to = ['ops@example.com']) => ({
  to,
  subject: 'DOWN: NAS web UI — connection refused',
  text: 'NAS web UI is down',
  html: '<p>NAS web UI is <b>down</b></p>',
  messageId: '<alert.42@farsight.test>',
});

const servers: { close(): Promise<void> }[] = [];
async function smtp(b: SmtpBehaviour = {}): Promise<SmtpServer> {
  const s = await startSmtp(b);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('mail transport', () => {
  it('sends through the primary: From, To, Subject, Message-ID, Auto-Submitted, a text and an HTML part', async () => {
    const primary = await smtp({ login: LOGIN });
    const fallback = await smtp();
    const transport = createMailTransport({ smtp: primary.url, smtpFallback: fallback.url, mailFrom: FROM }, fast);
    expect(transport.providers).toEqual([`127.0.0.1:${primary.port}`, `127.0.0.1:${fallback.port}`]);

    const result = await transport.send(mail(['ops@example.com', 'owner@example.org']));
    expect(result).toEqual({
      ok: true,
      provider: `127.0.0.1:${primary.port}`,
      status: 250,
      error: null,
      permanent: false,
    });
    expect(fallback.mails).toHaveLength(0);
    const [got] = primary.mails;
    expect(got.from).toBe('alerts@farsight.test');
    expect(got.to).toEqual(['ops@example.com', 'owner@example.org']);
    const h = headersOf(got.raw);
    expect(h.get('from')).toBe('Farsight <alerts@farsight.test>');
    expect(h.get('to')).toBe('ops@example.com, owner@example.org');
    expect(h.get('subject')).toMatch(/^=\?UTF-8\?[QB]\?/); // the em dash is encoded
    expect(decodeSubject(h.get('subject')!)).toBe('DOWN: NAS web UI — connection refused');
    expect(h.get('message-id')).toBe('<alert.42@farsight.test>');
    expect(h.get('auto-submitted')).toBe('auto-generated');
    expect(partOf(got.raw, 'text/plain')).toContain('NAS web UI is down');
    expect(partOf(got.raw, 'text/html')).toContain('<b>down</b>');
  });

  it('keeps the Message-ID of a message on every retry', async () => {
    const primary = await smtp();
    const transport = createMailTransport({ smtp: primary.url, smtpFallback: null, mailFrom: FROM }, fast);
    await transport.send(mail());
    await transport.send(mail());
    expect(primary.mails.map((m) => headersOf(m.raw).get('message-id'))).toEqual([
      '<alert.42@farsight.test>',
      '<alert.42@farsight.test>',
    ]);
  });

  it.each<[string, () => Promise<{ url: string; close?: () => Promise<void> }>, RegExp]>([
    ['refuses connections', async () => ({ url: `smtp://127.0.0.1:${await closedPort()}` }), /: connection refused$/],
    [
      'never greets',
      async () => {
        const silent = await startSilentServer();
        servers.push(silent);
        return { url: `smtp://127.0.0.1:${silent.port}` };
      },
      /: no greeting from the server in time$/,
    ],
    [
      'answers 4xx',
      () => smtp({ mailFrom: { code: 451, message: 'Try again later' } }),
      /: 451 Try again later \(after MAIL FROM\)$/,
    ],
    [
      'answers 5xx',
      () => smtp({ rcpt: { code: 550, message: 'Mailbox unavailable' } }),
      /: 550 <ops@example\.com>: Mailbox unavailable \(after RCPT TO\)$/,
    ],
    [
      'refuses the credentials',
      () =>
        smtp({ login: { user: 'relay-user', pass: 'right' } }).then((s) => ({
          url: s.url.replace('smtp://', `smtp://relay-user:${encodeURIComponent(LOGIN.pass)}@`),
        })),
      /: 535 Authentication credentials invalid \(after AUTH\)$/,
    ],
  ])('uses the fallback, and names it, when the primary %s', async (_, primaryOf, why) => {
    const primary = await primaryOf();
    const fallback = await smtp();
    const transport = createMailTransport({ smtp: primary.url, smtpFallback: fallback.url, mailFrom: FROM }, fast);
    const result = await transport.send(mail());
    expect(result).toEqual({
      ok: true,
      provider: `127.0.0.1:${fallback.port}`,
      status: 250,
      error: null,
      permanent: false,
    });
    expect(fallback.mails).toHaveLength(1);
    // What the primary said, had the fallback failed too:
    const alone = await createMailTransport({ smtp: primary.url, smtpFallback: null, mailFrom: FROM }, fast).send(
      mail(),
    );
    expect(alone.ok).toBe(false);
    expect(alone.error).toMatch(why);
    expect(alone.error).not.toContain(LOGIN.pass);
    expect(alone.error).not.toContain(encodeURIComponent(LOGIN.pass));
  });

  it('says why each provider failed when both fail; retryable unless both refused for good', async () => {
    const down = await closedPort();
    const busy = await smtp({ rcpt: { code: 452, message: 'Too many recipients' } });
    const result = await createMailTransport(
      {
        smtp: `smtp://${LOGIN.user}:${encodeURIComponent(LOGIN.pass)}@127.0.0.1:${down}`,
        smtpFallback: busy.url,
        mailFrom: FROM,
      },
      fast,
    ).send(mail());
    expect(result).toEqual({
      ok: false,
      provider: `127.0.0.1:${busy.port}`,
      status: 452,
      error: `127.0.0.1:${down}: connection refused; 127.0.0.1:${busy.port}: 452 <ops@example.com>: Too many recipients (after RCPT TO)`,
      permanent: false,
    });
    expect(result.error).not.toContain(LOGIN.user);
  });

  it('calls a 5xx on RCPT from every provider permanent', async () => {
    const a = await smtp({ rcpt: { code: 550, message: 'No such user' } });
    const b = await smtp({ rcpt: { code: 553, message: 'Mailbox name not allowed' } });
    const both = await createMailTransport({ smtp: a.url, smtpFallback: b.url, mailFrom: FROM }, fast).send(mail());
    expect(both).toMatchObject({ ok: false, status: 553, permanent: true });
    expect(both.error).toContain('550 <ops@example.com>: No such user');
    expect(both.error).toContain('553 <ops@example.com>: Mailbox name not allowed');
    const one = await createMailTransport({ smtp: a.url, smtpFallback: null, mailFrom: FROM }, fast).send(mail());
    expect(one).toMatchObject({ ok: false, provider: `127.0.0.1`, status: 550, permanent: true });
  });

  /**
   * A reply that echoes the password, whose first part is the user name, at offsets that put it
   * across the cut of the quoted reply (160 characters) too: masked whole, as one (issue 42).
   */
  it.each([0, 106, 110, 115, 121, 130])(
    'never shows part of a password that holds the user name, echoed after %i characters',
    async (pad) => {
      const login = { user: 'relay', pass: 'relay-PASSWORDXYZ' };
      const s = await smtp({
        login,
        rcpt: { code: 550, message: `${'.'.repeat(pad)} no relay for ${login.pass} here` },
      });
      const result = await createMailTransport({ smtp: s.url, smtpFallback: null, mailFrom: FROM }, fast).send(mail());
      expect(result).toMatchObject({ ok: false, status: 550 });
      const reply = /^127\.0\.0\.1: 550 <ops@example\.com>: (.*) \(after RCPT TO\)$/.exec(result.error ?? '')?.[1];
      expect(reply).toBeDefined();
      expect(reply).not.toMatch(/[A-Z]/);
    },
  );

  it('counts a message some recipients refused as sent, and says who was refused', async () => {
    const s = await smtp({ rcpt: { code: 550, message: 'No such user', only: 'gone@example.com' } });
    const result = await createMailTransport({ smtp: s.url, smtpFallback: null, mailFrom: FROM }, fast).send(
      mail(['ops@example.com', 'gone@example.com']),
    );
    expect(result).toEqual({
      ok: true,
      provider: '127.0.0.1',
      status: 250,
      error: 'refused 1 of 2 recipients: gone@example.com',
      permanent: false,
    });
    expect(s.mails[0].to).toEqual(['ops@example.com']);
  });

  it('speaks smtps with the certificate verified', async () => {
    const secure = await smtp({ tls: farmCerts().valid, login: LOGIN });
    const url = secure.url;
    const trusted = await createMailTransport(
      { smtp: url, smtpFallback: null, mailFrom: FROM },
      { ...fast, ca: farmCerts().ca },
    ).send(mail());
    expect(trusted).toMatchObject({ ok: true, provider: '127.0.0.1' });
    const untrusted = await createMailTransport({ smtp: url, smtpFallback: null, mailFrom: FROM }, fast).send(mail());
    expect(untrusted).toMatchObject({ ok: false, permanent: false });
    expect(untrusted.error).toMatch(/^127\.0\.0\.1: TLS failed/);
    expect(untrusted.error).not.toContain(LOGIN.pass);
  });

  it('without providers says so, permanently', async () => {
    const transport = createMailTransport({ smtp: null, smtpFallback: null, mailFrom: FROM });
    expect(transport.providers).toEqual([]);
    expect(await transport.send(mail())).toEqual({
      ok: false,
      provider: null,
      status: null,
      error: 'no mail provider is configured (FARSIGHT_SMTP)',
      permanent: true,
    });
  });
});
