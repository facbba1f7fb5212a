/** Errors in words, shared by the sign-in pages and the dashboard (public/shared/errors.js). */
type Failure = Error & {
  status: number;
  code: string;
  field: string | null;
  fields: { field: string; message: string }[];
  retryAfter: number | null;
};
type Errors = {
  ApiFailure: new (status: number, body: unknown, retryAfter: number | null) => Failure;
  errorWords(err: unknown, wrong?: string): string;
  sentence(text: string | null): string;
  waitWords(seconds: number | null): string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ApiFailure, errorWords, sentence, waitWords } = require('../../public/shared/errors.js') as Errors;

const failure = (status: number, error: object | null, retryAfter: number | null = null) =>
  new ApiFailure(status, error && { error }, retryAfter);

describe('ApiFailure', () => {
  it('takes the envelope apart', () => {
    const f = failure(422, {
      code: 'invalid',
      message: 'bad',
      field: 'name',
      fields: [{ field: 'name', message: 'bad' }],
    });
    expect([f.status, f.code, f.message, f.field, f.fields]).toEqual([
      422,
      'invalid',
      'bad',
      'name',
      [{ field: 'name', message: 'bad' }],
    ]);
  });

  it.each([
    [0, 'network', 'HTTP 0'],
    [500, 'unknown', 'HTTP 500'],
  ])('without an envelope, status %p is %s', (status, code, message) => {
    expect([failure(status, null).code, failure(status, null).message]).toEqual([code, message]);
  });
});

describe('sentence', () => {
  it.each([
    ['the passkey was not accepted', 'The passkey was not accepted.'],
    ['  already one?  ', 'Already one?'],
    ['Done!', 'Done!'],
    ['', ''],
    [null, ''],
  ])('%p is %p', (text, out) => {
    expect(sentence(text)).toBe(out);
  });
});

describe('waitWords', () => {
  it.each([
    [null, 'a minute'],
    [59, 'a minute'],
    [61, '2 minutes'],
    [89 * 60, '89 minutes'],
    [90 * 60, '2 hours'],
    [5 * 3600, '5 hours'],
  ])('%p s is "%s"', (s, words) => {
    expect(waitWords(s)).toBe(words);
  });
});

describe('errorWords', () => {
  const browserError = (name: string) => Object.assign(new Error('x'), { name });
  it.each<[string, unknown, string | undefined, string | RegExp]>([
    ['no network', failure(0, null), undefined, 'The server could not be reached. Check the connection and try again.'],
    [
      'too many',
      failure(429, { code: 'rate_limited', message: 'slow down' }, 600),
      undefined,
      'Too many attempts. Try again in 10 minutes.',
    ],
    [
      'a 401 on a form that says what it means',
      failure(401, { code: 'sign_in', message: 'sign in' }),
      'Wrong email or password.',
      'Wrong email or password.',
    ],
    [
      'a 401 elsewhere',
      failure(401, { code: 'sign_in', message: 'the ticket expired' }),
      undefined,
      'the ticket expired',
    ],
    ['a step-up', failure(403, { code: 'step_up', message: 'x' }), undefined, /more than 12 hours ago/],
    ['the bot check', failure(403, { code: 'forbidden', field: 'challenge', message: 'x' }), undefined, /not a robot/],
    [
      'unavailable',
      failure(503, { code: 'unavailable', message: 'no mail provider' }),
      undefined,
      'The server cannot do this right now (no mail provider). Try again in a moment.',
    ],
    [
      'fields by their words',
      failure(422, {
        code: 'invalid',
        message: 'x',
        fields: [
          { field: 'email', message: 'is needed.' },
          { field: 'recovery_code', message: 'is wrong' },
        ],
      }),
      undefined,
      'Email: is needed. Recovery code: is wrong.',
    ],
    ['another refusal', failure(409, { code: 'conflict', message: 'it changed' }), undefined, 'it changed'],
    ['a passkey prompt cancelled', browserError('NotAllowedError'), undefined, /cancelled or timed out/],
    ['a passkey already there', browserError('InvalidStateError'), undefined, /already holds a passkey/],
    ['passkeys refused here', browserError('SecurityError'), undefined, /need https/],
    ['anything else', new Error('boom'), undefined, 'Something went wrong in the browser: boom'],
  ])('%s', (_what, err, wrong, words) => {
    if (typeof words === 'string') expect(errorWords(err, wrong)).toBe(words);
    else expect(errorWords(err, wrong)).toMatch(words);
  });
});
