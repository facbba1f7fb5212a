import { renderOwnerMail, resetMail, signInNotice } from './owner-mail';

const at = Date.UTC(2026, 10, 23, 11, 2);
const base = { ip: '198.51.100.7', device: 'Firefox on Linux', at, publicUrl: 'https://mon.example.com/' };

describe('owner mail', () => {
  it.each([
    ['passkey', 'New sign-in to Farsight: passkey, Firefox on Linux'],
    ['password', 'New sign-in to Farsight: password and authenticator code, Firefox on Linux'],
    ['enroll', 'New sign-in to Farsight: break-glass enrolment link, Firefox on Linux'],
    ['recovery', 'New sign-in to Farsight: password and a recovery code, Firefox on Linux'],
  ])('a %s sign-in is named in the subject', (method, subject) => {
    expect(signInNotice({ ...base, method }).subject).toBe(subject);
  });

  it('a sign-in notice names the device, address and time, and says what to do if it was not the owner', () => {
    const { text } = renderOwnerMail(signInNotice({ ...base, method: 'passkey' }));
    expect(text).toContain('Device: Firefox on Linux');
    expect(text).toContain('Address: 198.51.100.7');
    expect(text).toContain('When: 2026-11-23 11:02 UTC');
    expect(text).toContain('https://mon.example.com as you');
    expect(text).toMatch(/If it was not/);
  });

  it('an unknown browser and address still read as words', () => {
    const v = signInNotice({ ...base, method: 'passkey', device: null, ip: null });
    expect(v.subject).toBe('New sign-in to Farsight: passkey, an unknown browser');
    expect(v.facts).toContainEqual({ label: 'Address', value: 'unknown' });
  });

  it('the reset link is in the bodies, never in the subject, and its expiry is said', () => {
    const url = `https://mon.example.com/reset/${'t'.repeat(40)}`;
    const mail = renderOwnerMail(resetMail({ ...base, url, expiresAt: at + 3600_000 }));
    expect(mail.subject).not.toContain('t'.repeat(40));
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.text).toContain('until 2026-11-23 12:02 UTC');
  });

  it('text from outside is escaped in the HTML part and left as it is in the text part', () => {
    const mail = renderOwnerMail(signInNotice({ ...base, method: 'passkey', device: '<b>AT&T</b> browser' }));
    expect(mail.html).toContain('&lt;b&gt;AT&amp;T&lt;/b&gt; browser');
    expect(mail.html).not.toContain('<b>AT&T</b>');
    expect(mail.text).toContain('<b>AT&T</b> browser');
  });
});
