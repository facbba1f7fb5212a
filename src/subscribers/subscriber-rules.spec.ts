import { checkEmail, confirmLinkState, isTokenShape, parseSubscribeBody } from './subscriber-rules';

describe('checkEmail', () => {
  it.each<[string, string]>([
    ['ada@example.com', 'ada@example.com'],
    ['  Ada.Lovelace+status@Example.COM ', 'ada.lovelace+status@example.com'],
    ["o'brien@mail.example.org", "o'brien@mail.example.org"],
    ['x@xn--bcher-kva.example', 'x@xn--bcher-kva.example'],
  ])('takes %j as %j', (input, email) => {
    expect(checkEmail(input)).toEqual({ ok: true, email });
  });

  it.each<[string, unknown]>([
    ['not text', 42],
    ['no at sign', 'ada.example.com'],
    ['nothing before the at', '@example.com'],
    ['nothing after the at', 'ada@'],
    ['a domain without a dot', 'ada@localhost'],
    ['an address literal', 'ada@[127.0.0.1]'],
    ['a numeric top-level label', 'ada@10.0.0.1'],
    ['two dots in a row', 'ada..l@example.com'],
    ['a space inside', 'ada l@example.com'],
    ['a CR LF header injection', 'ada@example.com\r\nBcc: everyone@example.com'],
    ['a bare LF', 'ada@example.com\nX: y'],
    ['a NUL', 'ada\u0000@example.com'],
    ['a 10 KB address', `${'a'.repeat(10_240)}@example.com`],
    ['a local part over 64', `${'a'.repeat(65)}@example.com`],
    ['an address over 254', `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.com`],
    ['a label starting with a hyphen', 'ada@-example.com'],
    ['a unicode domain', 'ada@bücher.example'],
  ])('refuses %s', (_what, input) => {
    expect(checkEmail(input).ok).toBe(false);
  });
});

describe('parseSubscribeBody', () => {
  it('takes {email, challenge}', () => {
    expect(parseSubscribeBody({ email: 'A@example.com', challenge: 't' })).toEqual({
      ok: true,
      value: { email: 'a@example.com', challenge: 't' },
    });
  });

  it.each<[string, unknown, string[]]>([
    ['no body', null, ['email']],
    ['an array', [], ['email']],
    ['no email', { challenge: 'x' }, ['email']],
    ['an unknown field', { email: 'a@example.com', name: 'x' }, ['name']],
    ['a bad address and an unknown field', { email: 'nope', admin: true }, ['email', 'admin']],
    [
      'the form field name from the API',
      { email: 'a@example.com', 'cf-turnstile-response': 'x' },
      ['cf-turnstile-response'],
    ],
  ])('refuses %s, naming %j', (_what, body, fields) => {
    const r = parseSubscribeBody(body);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.field)).toEqual(fields);
  });

  it("takes the form's challenge widget field", () => {
    expect(parseSubscribeBody({ email: 'a@example.com', 'cf-turnstile-response': 'tok' }, true)).toEqual({
      ok: true,
      value: { email: 'a@example.com', challenge: 'tok' },
    });
  });
});

describe('confirmLinkState', () => {
  const now = 1_000_000;
  it.each<[string, Parameters<typeof confirmLinkState>[0], string]>([
    ['no row', undefined, 'unknown'],
    ['a fresh link', { confirm_expires_at: now + 1, confirm_used_at: null }, 'valid'],
    ['a link at its expiry', { confirm_expires_at: now, confirm_used_at: null }, 'expired'],
    ['a used link', { confirm_expires_at: now + 1, confirm_used_at: now - 5 }, 'used'],
    ['a used and expired link', { confirm_expires_at: now - 1, confirm_used_at: now - 5 }, 'used'],
  ])('%s is %s', (_what, row, state) => {
    expect(confirmLinkState(row, now)).toBe(state);
  });
});

describe('isTokenShape', () => {
  it.each<[string, boolean]>([
    ['k'.repeat(43), true],
    ['k'.repeat(42), false],
    ['k'.repeat(42) + '/', false],
    ['', false],
  ])('%j: %s', (token, ok) => {
    expect(isTokenShape(token)).toBe(ok);
  });
});
