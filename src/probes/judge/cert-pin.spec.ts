import { colonHex, judgeCertPin, normalizeCertSha256 } from './cert-pin';

const HEX = '3fa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f';
const STORED = colonHex(HEX);

describe('normalizeCertSha256', () => {
  it.each<[string, string, string | null]>([
    ['plain lower-case hex', HEX, STORED],
    ['upper-case hex', HEX.toUpperCase(), STORED],
    ['colon-separated, as browsers and openssl show it', STORED, STORED],
    ['colon-separated, lower case', STORED.toLowerCase(), STORED],
    ['space-separated', HEX.match(/../g)!.join(' '), STORED],
    ['surrounding blanks', `  ${HEX}\n`, STORED],
    ['openssl x509 -fingerprint -sha256 output', `SHA256 Fingerprint=${STORED}`, STORED],
    ['a sha256: prefix', `sha256:${HEX}`, STORED],
    ['too short (a SHA-1 fingerprint)', 'A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E:8F:90:A1:B2:C3:D4', null],
    ['one digit too many', `${HEX}0`, null],
    ['not hex', HEX.replace('3f', 'zz'), null],
    ['empty', '', null],
    ['a base64 digest', 'P6Gyw9Tl9gcYKTpLXG1+j5Chr8PU5fYHGCk6S1xtfo8=', null],
  ])('%s', (_what, text, want) => {
    expect(normalizeCertSha256(text)).toBe(want);
  });
});

describe('judgeCertPin', () => {
  it('passes the pinned certificate', () => {
    expect(judgeCertPin(STORED, STORED)).toBeNull();
  });

  it('fails another one with cert_pin, showing the start of both fingerprints', () => {
    const other = colonHex('00'.repeat(32));
    expect(judgeCertPin(STORED, other)).toEqual({
      code: 'cert_pin',
      message:
        'certificate is not the pinned one: cert_sha256 expects 3F:A1:B2:C3:D4:E5:F6:07…, the server presented 00:00:00:00:00:00:00:00…',
    });
  });
});
