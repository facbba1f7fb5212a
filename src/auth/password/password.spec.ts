import {
  hashPassword,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordProblem,
  UNMATCHABLE_HASH,
  verifyPassword,
} from './password';

describe('passwordProblem', () => {
  const distinct = (n: number) => Array.from({ length: n }, (_, i) => 'abcdefghij'[i % 10]).join('');

  it.each<[string, string, string | undefined, string | null]>([
    ['9 characters', distinct(9), undefined, `must be at least ${PASSWORD_MIN} characters`],
    ['the empty string', '', undefined, `must be at least ${PASSWORD_MIN} characters`],
    ['exactly 10 characters', distinct(10), undefined, null],
    ['exactly 200 characters', distinct(200), undefined, null],
    ['201 characters', distinct(201), undefined, `must be at most ${PASSWORD_MAX} characters`],
    ['9 emoji (18 UTF-16 units)', '😀😁😂🤣😃😄😅😆😉', undefined, `must be at least ${PASSWORD_MIN} characters`],
    ['10 different emoji', '😀😁😂🤣😃😄😅😆😉😊', undefined, null],
    ['one character repeated', 'aaaaaaaaaaaa', undefined, 'must use at least 5 different characters'],
    ['4 different characters', 'abcdabcdabcd', undefined, 'must use at least 5 different characters'],
    ['5 different characters', 'abcdeabcde', undefined, null],
    ['a common password', 'password123', undefined, 'is a well-known password'],
    ['a common password in upper case', 'PASSWORD123', undefined, 'is a well-known password'],
    ['a common password in mixed case', 'QwertyUiop', undefined, 'is a well-known password'],
    ['the product name', 'Farsight123', undefined, 'is a well-known password'],
    ['a common password with something added', 'password123!', undefined, null],
    ['the email address', 'owner@example.com', 'owner@example.com', 'must not be your email address'],
    ['the email address in another case', 'Owner@Example.com', 'owner@example.COM', 'must not be your email address'],
    ['the local part of the email', 'homelab.owner', 'homelab.owner@example.com', 'must not be your email address'],
    ['the local part in upper case', 'HOMELAB.OWNER', 'homelab.owner@example.com', 'must not be your email address'],
    ['something that merely contains the local part', 'homelab.owner!', 'homelab.owner@example.com', null],
    ['a good password with an email given', 'correct horse battery', 'owner@example.com', null],
    ['a good password with an empty email', 'correct horse battery', '', null],
  ])('%s → %j', (_label, password, email, problem) => {
    expect(passwordProblem(password, email)).toBe(problem);
  });
});

describe('hashPassword and verifyPassword', () => {
  let stored: string;

  beforeAll(async () => {
    stored = await hashPassword('correct horse battery');
  });

  it('stores scrypt parameters, salt and hash, never the password', () => {
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(stored).not.toContain('correct horse battery');
  });

  it.each<[string, boolean]>([
    ['correct horse battery', true],
    ['correct horse battery ', false],
  ])('verifying %j answers %s', async (password, ok) => {
    await expect(verifyPassword(password, stored)).resolves.toBe(ok);
  });

  // Rejected by the shape check, so no scrypt runs.
  it.each([
    '',
    'not-a-hash',
    'bcrypt$1$8$1$c2FsdA==$aGFzaA==',
    'scrypt$32768$8$1$c2FsdA==',
    'scrypt$32768$8$1$c2FsdA==$aGFzaA==$x',
  ])('answers false for the malformed stored value %j', async (malformed) => {
    await expect(verifyPassword('correct horse battery', malformed)).resolves.toBe(false);
  });

  it.each(['scrypt$abc$8$1$c2FsdA==$aGFzaA==', 'scrypt$3$8$1$c2FsdA==$aGFzaA==', 'scrypt$$$$$'])(
    'answers false for the stored value %j whose parameters scrypt cannot use',
    async (malformed) => {
      await expect(verifyPassword('correct horse battery', malformed)).resolves.toBe(false);
    },
  );
});

describe('UNMATCHABLE_HASH', () => {
  it('has the parameters a new hash gets, so checking against it costs the same scrypt', async () => {
    const params = (stored: string) => stored.split('$').slice(0, 4).join('$');
    expect(params(UNMATCHABLE_HASH)).toBe(params(await hashPassword('another password here')));
    expect(UNMATCHABLE_HASH).toMatch(/^scrypt\$32768\$8\$1\$A{22}==\$A{43}=$/);
  });

  it.each(['', 'correct horse battery', 'A'.repeat(64)])('opens for no password (%j)', async (password) => {
    await expect(verifyPassword(password, UNMATCHABLE_HASH)).resolves.toBe(false);
  });
});
