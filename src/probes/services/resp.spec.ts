import { encodeCommand, judgeAuth, judgePing, judgeSelect, RespReply, takeRespReply } from './resp';

describe('encodeCommand', () => {
  it('sends an array of bulk strings, sized in bytes', () => {
    expect(encodeCommand(['AUTH', 'app', 'pässword']).toString('latin1')).toBe(
      Buffer.from('*3\r\n$4\r\nAUTH\r\n$3\r\napp\r\n$9\r\npässword\r\n').toString('latin1'),
    );
  });
});

describe('takeRespReply', () => {
  it.each([
    ['+PONG\r\n', { reply: { kind: 'ok', text: 'PONG' }, rest: '' }],
    ['+OK\r\n+PONG\r\n', { reply: { kind: 'ok', text: 'OK' }, rest: '+PONG\r\n' }],
    [
      '-NOAUTH Authentication required.\r\n',
      { reply: { kind: 'error', text: 'NOAUTH Authentication required.' }, rest: '' },
    ],
    [':1\r\n', { reply: { kind: 'ok', text: '1' }, rest: '' }],
    ['$4\r\nPONG\r\n', { reply: { kind: 'ok', text: 'PONG' }, rest: '' }],
    ['$-1\r\n', { reply: { kind: 'ok', text: '' }, rest: '' }],
    ['+PON', null],
    ['$4\r\nPO', null],
    ['', null],
    ['HTTP/1.1 400 Bad Request\r\n', { garbage: 'HTTP/1.1 400 Bad Request' }],
    ['SSH-2.0-x', { garbage: 'SSH-2.0-x' }],
    ['$abc\r\n', { garbage: '$abc' }],
    ['*1\r\n+x\r\n', { garbage: '*1' }],
  ])('%j', (text, expected) => {
    expect(takeRespReply(text)).toEqual(expected);
  });
});

const ok = (text: string): RespReply => ({ kind: 'ok', text });
const err = (text: string): RespReply => ({ kind: 'error', text });

describe('the verdicts', () => {
  it.each([
    ['AUTH OK', judgeAuth(ok('OK')), null],
    ['WRONGPASS', judgeAuth(err('WRONGPASS invalid username-password pair or user is disabled.')), 'auth_failed'],
    ['an old invalid password', judgeAuth(err('ERR invalid password')), 'auth_failed'],
    [
      'no password set',
      judgeAuth(err('ERR AUTH <password> called without any password configured for the default user.')),
      'auth_failed',
    ],
    ['SELECT OK', judgeSelect(ok('OK'), '2'), null],
    ['SELECT out of range', judgeSelect(err('ERR DB index is out of range'), '9'), 'db_not_found'],
    ['PONG', judgePing(ok('PONG')), null],
    ['PING without auth', judgePing(err('NOAUTH Authentication required.')), 'auth_failed'],
    ['PING answered oddly', judgePing(ok('hello')), 'protocol'],
    ['PING refused while loading', judgePing(err('LOADING Redis is loading the dataset in memory')), 'query_failed'],
  ])('%s', (_name, error, code) => {
    expect(error?.code ?? null).toBe(code);
  });

  it('says so when a password is given to a server without one', () => {
    expect(
      judgeAuth(err('ERR AUTH <password> called without any password configured for the default user.'))?.message,
    ).toBe('a password was given, and the server has none set');
  });
});
