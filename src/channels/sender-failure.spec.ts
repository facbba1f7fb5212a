import { thrownBySender } from './sender-failure';

const HOOK = 'https://hooks.example.com/services/T0AAAA/B0BBBB/xoxb-very-secret-path-token';
const SIGNING = 'a-long-signing-secret-0123456789';

describe('thrownBySender', () => {
  it.each<[string, unknown, string[]]>([
    ['the whole URL', new Error(`request to ${HOOK} failed`), [HOOK]],
    [
      'the path of the URL alone',
      new Error('POST /services/T0AAAA/B0BBBB/xoxb-very-secret-path-token refused'),
      [HOOK],
    ],
    ['a secret straddling the cut', new Error(`${'x'.repeat(190)}${SIGNING}`), [SIGNING]],
    ['a header value', new Error(`header X-Token: tok-0123456789abcdef rejected`), ['tok-0123456789abcdef']],
  ])('masks %s', (_, err, secrets) => {
    const r = thrownBySender(err, secrets);
    expect(r).toMatchObject({ ok: false, permanent: false });
    for (const s of secrets) expect(r.error).not.toContain(s.slice(0, 12));
    expect(r.error).not.toContain('xoxb-very');
    expect(r.error!.length).toBeLessThanOrEqual('the sender failed: '.length + 200);
  });

  it('says "unknown error" for a throw that is not an Error', () => {
    expect(thrownBySender('boom', [SIGNING]).error).toBe('the sender failed: unknown error');
  });
});
