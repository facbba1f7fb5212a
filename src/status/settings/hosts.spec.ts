import { normalizeHost, requestHost } from './hosts';

describe('normalizeHost', () => {
  it.each([
    ['status.example.com', 'status.example.com'],
    ['Status.Example.COM', 'status.example.com'],
    ['status.example.com.', 'status.example.com'],
    ['  status.example.com  ', 'status.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['STATUS.BÜCHER.example', 'status.xn--bcher-kva.example'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('keeps %j as %j', (raw, host) => {
    expect(normalizeHost(raw)).toEqual({ ok: true, host });
  });

  it.each([
    ['', 'empty'],
    ['https://status.example.com', 'without scheme'],
    ['status.example.com/path', 'without scheme'],
    ['user@status.example.com', 'without scheme'],
    ['status.example.com:8443', 'without a port'],
    ['192.168.1.10', 'not an IP address'],
    ['::1', 'not an IP address'],
    ['[2001:db8::1]', 'not an IP address'],
    ['10.1', 'not an IP address'],
    ['0x7f.1', 'not an IP address'],
    ['1.2.3.4.5', 'not a valid host name'],
    ['status.example.123', 'not a valid host name'],
    ['localhost', 'localhost names'],
    ['status.localhost', 'localhost names'],
    ['LOCALHOST.', 'localhost names'],
    ['*.example.com', 'wildcards are not supported'],
    ['status.*.example.com', 'wildcards are not supported'],
    ['-bad.example.com', 'inner hyphens'],
    ['bad-.example.com', 'inner hyphens'],
    ['under_score.example.com', 'inner hyphens'],
    ['a..b.example', 'inner hyphens'],
    [`${'a'.repeat(64)}.example`, 'inner hyphens'],
    [`${'abcdefghi.'.repeat(26)}com`, 'at most 253'],
    ['two words.example', 'without scheme'],
  ])('refuses %j (%s)', (raw, words) => {
    const r = normalizeHost(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(words);
  });
});

describe('requestHost', () => {
  it.each([
    ['status.example.com', 'status.example.com'],
    ['Status.Example.com:8080', 'status.example.com'],
    ['status.example.com.', 'status.example.com'],
    ['[::1]:8080', '[::1]'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['', null],
    [undefined, null],
  ])('reads %j as %j', (header, host) => {
    expect(requestHost(header)).toBe(host);
  });
});
