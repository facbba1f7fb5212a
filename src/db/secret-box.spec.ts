import { parseSecretKey, SEALED_PREFIX, SecretBox, SecretBoxError, isSealed } from './secret-box';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);

describe('SecretBox', () => {
  const box = new SecretBox(KEY);

  it.each(['s3cret-token', '', 'pässwörd ✓', 'x'.repeat(5000), 'enc:v1:looks-sealed-but-is-a-real-secret'])(
    'seals %j into enc:v1: text that opens to the same value',
    (plain) => {
      const sealed = box.seal(plain);
      expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
      expect(isSealed(sealed)).toBe(true);
      if (plain.length > 3) expect(sealed).not.toContain(plain);
      expect(box.open(sealed)).toBe(plain);
    },
  );

  it('uses a fresh nonce for every value, so equal secrets are not recognisable', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it.each(['plain-token', '', 'Bearer abc', 'enc:v2:something'])(
    'reads %j, written before encryption, as clear text',
    (stored) => {
      expect(box.open(stored)).toBe(stored);
    },
  );

  it('refuses a value sealed with another key with an error that says so', () => {
    const sealed = new SecretBox(OTHER_KEY).seal('token');
    expect(() => box.open(sealed)).toThrow(SecretBoxError);
    expect(() => box.open(sealed)).toThrow(/not the one it was sealed with/);
  });

  function flipByte(sealed: string, index: (raw: Buffer) => number): string {
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
    raw[index(raw)] ^= 0x01;
    return SEALED_PREFIX + raw.toString('base64');
  }

  it.each<[string, (raw: Buffer) => number]>([
    ['the nonce', () => 0],
    ['the ciphertext', () => 12],
    ['the tag', (raw) => raw.length - 1],
  ])('detects a change to %s', (_part, index) => {
    const tampered = flipByte(box.seal('token-value'), index);
    expect(() => box.open(tampered)).toThrow(SecretBoxError);
  });

  it.each([
    ['too short to hold a nonce and a tag', `${SEALED_PREFIX}${Buffer.alloc(20).toString('base64')}`],
    ['not base64', `${SEALED_PREFIX}!!!!not-base64!!!!!!!!!!!!!!!!!!!!!!!!!!`],
    ['empty', SEALED_PREFIX],
  ])('refuses a sealed value that is %s', (_why, stored) => {
    expect(() => box.open(stored)).toThrow(/damaged/);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow(SecretBoxError);
  });
});

describe('parseSecretKey', () => {
  const key = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7 + 1));

  it.each<[string, Buffer]>([
    ['32 raw bytes', key],
    ['64 hex digits', Buffer.from(key.toString('hex'))],
    ['64 hex digits and a newline', Buffer.from(`${key.toString('hex').toUpperCase()}\n`)],
    ['base64 of 32 bytes', Buffer.from(key.toString('base64'))],
    ['base64 of 32 bytes with whitespace', Buffer.from(`  ${key.toString('base64')}\r\n`)],
  ])('reads %s', (_what, content) => {
    expect(parseSecretKey(content)).toEqual(key);
  });

  it.each<[string, Buffer]>([
    ['an empty file', Buffer.alloc(0)],
    ['31 raw bytes', Buffer.alloc(31, 1)],
    ['33 raw bytes', Buffer.alloc(33, 1)],
    ['62 hex digits', Buffer.from('ab'.repeat(31))],
    ['base64 of 24 bytes and a newline', Buffer.from(`${Buffer.alloc(24, 1).toString('base64')}\n`)],
    ['base64 of 48 bytes', Buffer.from(Buffer.alloc(48, 1).toString('base64'))],
    ['a password', Buffer.from('correct horse battery staple\n')],
  ])('refuses %s', (_what, content) => {
    expect(parseSecretKey(content)).toBeNull();
  });
});
