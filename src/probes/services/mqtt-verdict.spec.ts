import { describeMqtt, judgeConnack, judgeMessage, judgeSuback, quoteMessage } from './mqtt-verdict';

describe('judgeConnack', () => {
  it.each<[number, boolean, string | null, string | null]>([
    [0, false, null, null],
    [1, false, 'connect_failed', 'the broker refused the connection (CONNACK 1: unacceptable protocol version)'],
    [2, false, 'connect_failed', 'the broker refused the connection (CONNACK 2: client identifier rejected)'],
    [3, true, 'connect_failed', 'the broker refused the connection (CONNACK 3: server unavailable)'],
    [4, true, 'auth_failed', 'the broker refused the login (CONNACK 4: bad user name or password)'],
    [
      5,
      false,
      'auth_failed',
      'the broker refused the login (CONNACK 5: not authorized): the broker may want a user name and password',
    ],
    [
      9,
      false,
      'connect_failed',
      'the broker refused the connection (CONNACK 9: a return code MQTT 3.1.1 does not define)',
    ],
  ])('CONNACK %i (credentials: %s) → %s', (code, creds, errorCode, message) => {
    const e = judgeConnack(code, creds);
    expect(e === null ? null : e.code).toBe(errorCode);
    expect(e === null ? null : e.message).toBe(message);
  });
});

describe('judgeSuback', () => {
  it.each([
    [0, null],
    [1, null],
    [2, null],
    [0x80, 'not_authorized'],
  ])('granted %i → %s', (granted, code) => {
    expect(judgeSuback(granted, 'a/#')?.code ?? null).toBe(code);
  });
});

describe('judgeMessage', () => {
  const msg = (text: string) => Buffer.from(text);
  it.each<
    [
      string,
      { expect: string | null; json: { path: string; op: '==' | 'exists' | '>'; value?: number | string }[] },
      string,
      string | null,
    ]
  >([
    ['no rule: any message passes', { expect: null, json: [] }, 'anything', null],
    ['the text is there', { expect: 'online', json: [] }, 'status: online', null],
    ['the text is missing', { expect: 'online', json: [] }, 'offline', 'expect'],
    ['the text is case-sensitive', { expect: 'Online', json: [] }, 'online', 'expect'],
    ['a JSON rule passes', { expect: null, json: [{ path: '$.temp', op: '>', value: 20 }] }, '{"temp":21.5}', null],
    ['a JSON rule fails', { expect: null, json: [{ path: '$.temp', op: '>', value: 30 }] }, '{"temp":21.5}', 'json'],
    ['not JSON', { expect: null, json: [{ path: '$.a', op: 'exists' }] }, 'on', 'json'],
    ['text first, then JSON', { expect: 'x', json: [{ path: '$.a', op: 'exists' }] }, '{"a":1}', 'expect'],
    [
      'a byte order mark before JSON',
      { expect: null, json: [{ path: '$.a', op: '==', value: 1 }] },
      '\uFEFF{"a":1}',
      null,
    ],
  ])('%s', (_name, rules, text, code) => {
    expect(judgeMessage(rules, 'home/x', msg(text))?.code ?? null).toBe(code);
  });

  it('quotes the message it judged, clipped', () => {
    const e = judgeMessage({ expect: 'up', json: [] }, 't', Buffer.from('d'.repeat(300)));
    expect(e?.message).toBe(`the message on t does not contain "up": "${'d'.repeat(100)}…"`);
  });
});

describe('quoteMessage and describeMqtt', () => {
  it.each([
    [Buffer.from('on\nline'), '"on line"'],
    [Buffer.from([0xff, 0xfe, 0x00]), '3 bytes (not text)'],
    [Buffer.from('ü'), '"ü"'],
  ])('quotes %j as %s', (payload, text) => {
    expect(quoteMessage(payload)).toBe(text);
  });

  it('describes a connection and a message', () => {
    expect(describeMqtt(null)).toBe('connected');
    expect(describeMqtt({ topic: 'a/b', payload: Buffer.from('1'), retained: true })).toBe(
      'message on a/b (retained): "1"',
    );
  });
});
