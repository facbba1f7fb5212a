import { laterOf } from '../../dispatcher.service';
import type { ReceiverOutcome } from '../../receiver-http';
import { htmlWords, judgeAnswer, retryAfterMs, ServiceName } from './answers';

const answered = (status: number, answer: unknown): ReceiverOutcome => ({
  ok: status >= 200 && status < 300,
  status,
  error: status >= 300 ? `http://x: answered ${status}` : null,
  permanent: status >= 400 && status !== 429 && status < 500,
  answer: typeof answer === 'string' ? answer : JSON.stringify(answer),
});

describe('service answers', () => {
  it.each<[ServiceName, number, unknown, { ok: boolean; permanent?: boolean; words?: RegExp; retryAfterMs?: number }]>([
    ['telegram', 200, { ok: true, result: {} }, { ok: true }],
    [
      'telegram',
      200,
      { ok: false, error_code: 400, description: "Bad Request: can't parse entities" },
      { ok: false, permanent: true, words: /can't parse entities/ },
    ],
    ['telegram', 200, '<html>proxy</html>', { ok: false, permanent: false, words: /not Telegram’s/ }],
    [
      'telegram',
      429,
      { ok: false, error_code: 429, description: 'Too Many Requests: retry after 35', parameters: { retry_after: 35 } },
      { ok: false, permanent: false, retryAfterMs: 35_000 },
    ],
    [
      'telegram',
      400,
      {
        ok: false,
        error_code: 400,
        description: 'Bad Request: group chat was upgraded',
        parameters: { migrate_to_chat_id: -100123 },
      },
      { ok: false, permanent: true, words: /now chat -100123: update chat_id/ },
    ],
    [
      'telegram',
      403,
      { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
      { ok: false, permanent: true, words: /bot was blocked/ },
    ],
    ['pushover', 200, { status: 1, request: 'r' }, { ok: true }],
    [
      'pushover',
      200,
      { status: 0, errors: ['user is over quota'] },
      { ok: false, permanent: true, words: /over quota/ },
    ],
    [
      'pushover',
      400,
      { user: 'invalid', errors: ['user identifier is invalid'], status: 0 },
      { ok: false, permanent: true, words: /user identifier is invalid/ },
    ],
    ['pushover', 429, { status: 0, errors: ['over limit'] }, { ok: false, permanent: false }],
    ['pushover', 500, 'oops', { ok: false, permanent: false, words: /oops/ }],
    ['matrix', 200, { event_id: '$e' }, { ok: true }],
    [
      'matrix',
      429,
      { errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests', retry_after_ms: 2000 },
      { ok: false, permanent: false, retryAfterMs: 2000, words: /M_LIMIT_EXCEEDED/ },
    ],
    ['matrix', 400, { errcode: 'M_LIMIT_EXCEEDED', error: 'slow down' }, { ok: false, permanent: false }],
    [
      'matrix',
      403,
      { errcode: 'M_FORBIDDEN', error: 'not in room' },
      { ok: false, permanent: true, words: /M_FORBIDDEN: not in room/ },
    ],
    [
      'ntfy',
      429,
      { code: 42901, http: 429, error: 'limit reached' },
      { ok: false, permanent: false, words: /limit reached/ },
    ],
    ['ntfy', 403, { code: 40301, http: 403, error: 'forbidden' }, { ok: false, permanent: true, words: /forbidden/ }],
    [
      'gotify',
      401,
      { error: 'Unauthorized', errorCode: 401, errorDescription: 'bad token' },
      { ok: false, permanent: true, words: /Unauthorized: bad token/ },
    ],
    ['pagerduty', 202, { status: 'success' }, { ok: true }],
    [
      'pagerduty',
      400,
      { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] },
      { ok: false, permanent: true, words: /invalid: Invalid routing key/ },
    ],
    ['pagerduty', 429, {}, { ok: false, permanent: false }],
    [
      'home-assistant',
      400,
      { message: 'Service notify.x not found.' },
      { ok: false, permanent: true, words: /not found/ },
    ],
    [
      'home-assistant',
      502,
      '<!DOCTYPE html><html><head><title>Bad Gateway</title></head></html>',
      { ok: false, permanent: false, words: /an HTML page: "Bad Gateway"/ },
    ],
    ['apprise', 200, 'Notification(s) sent.', { ok: true }],
    ['apprise', 204, '', { ok: false, permanent: true, words: /nothing was notified/ }],
    ['apprise', 424, 'One or more notification could not be sent.', { ok: false, permanent: false }],
  ])('%s answering %i %j', (service, status, answer, want) => {
    const r = judgeAnswer(service, answered(status, answer), []);
    expect(r.ok).toBe(want.ok);
    if (want.permanent !== undefined) expect(r.permanent).toBe(want.permanent);
    if (want.words) expect(r.error).toMatch(want.words);
    expect(r.retryAfterMs).toBe(want.retryAfterMs);
  });

  it.each([
    ['120', 120_000],
    [' 5 ', 5_000],
    ['0', 0],
    ['Wed, 21 Oct 2026 07:28:00 GMT', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['9999999999', undefined],
    [undefined, undefined],
  ])('reads Retry-After %j as a wait of %j ms', (header, ms) => {
    expect(retryAfterMs(header)).toBe(ms);
  });

  it("waits as a 429's Retry-After says, unless the body says it (Telegram) or retrying cannot help", () => {
    const limited = { ...answered(429, 'slow down'), retryAfter: '30' };
    expect(judgeAnswer('ntfy', limited, []).retryAfterMs).toBe(30_000);
    const telegram = {
      ...answered(429, { ok: false, error_code: 429, parameters: { retry_after: 7 } }),
      retryAfter: '30',
    };
    expect(judgeAnswer('telegram', telegram, []).retryAfterMs).toBe(7_000);
    expect(
      judgeAnswer('gotify', { ...answered(401, { error: 'no' }), retryAfter: '30' }, []).retryAfterMs,
    ).toBeUndefined();
  });

  it('masks a secret the service echoes in its words', () => {
    const r = judgeAnswer('gotify', answered(401, { error: 'bad token AaBbCcDd.Ee-F_1' }), ['AaBbCcDd.Ee-F_1']);
    expect(r.error).not.toContain('AaBbCcDd.Ee-F_1');
  });

  it('passes on failures without an answer as receiver-http said them', () => {
    const o: ReceiverOutcome = {
      ok: false,
      status: null,
      error: 'http://x: timed out after 10 s waiting for the answer',
      permanent: false,
    };
    expect(judgeAnswer('ntfy', o, [])).toEqual({ ok: false, status: null, error: o.error, permanent: false });
  });

  it.each([
    ['<html><head><title> 503 Service\n Unavailable </title></head></html>', 'an HTML page: "503 Service Unavailable"'],
    ['<!doctype html><body>down</body>', 'an HTML page'],
    ['{"error":"x"}', null],
  ])('names an HTML page: %j', (answer, words) => {
    expect(htmlWords(answer)).toBe(words);
  });

  it.each<[number | null, number | undefined, number | null]>([
    [30_000, undefined, 30_000],
    [30_000, 3_000, 30_000],
    [30_000, 90_000, 90_000],
    [30_000, 10 * 86_400_000, 86_400_000],
    [null, 5_000, null],
  ])('the next try after %s with a wait of %s is at %s', (scheduled, wait, at) => {
    expect(laterOf(scheduled, 0, wait)).toBe(at);
  });
});
