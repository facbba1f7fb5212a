import { judgeEhlo, judgeGreeting, judgeStartTls, offers, SmtpReply, takeReply } from './smtp-reply';

describe('takeReply', () => {
  it.each([
    ['one line', '220 mail.lan ESMTP\r\n', { reply: { code: 220, lines: ['mail.lan ESMTP'] }, rest: '' }],
    [
      'a multi-line reply, then more',
      '250-mail.lan\r\n250-SIZE 1000\r\n250 STARTTLS\r\n221 bye',
      { reply: { code: 250, lines: ['mail.lan', 'SIZE 1000', 'STARTTLS'] }, rest: '221 bye' },
    ],
    ['bare LF line ends', '220 ready\n', { reply: { code: 220, lines: ['ready'] }, rest: '' }],
    ['a code alone', '220\r\n', { reply: { code: 220, lines: [''] }, rest: '' }],
    ['an unfinished line', '220 mail.lan', null],
    ['an unfinished reply', '250-mail.lan\r\n250-SIZE', null],
    ['garbage', 'SSH-2.0-OpenSSH_9.2\r\n', { garbage: 'SSH-2.0-OpenSSH_9.2' }],
    ['an HTTP answer', 'HTTP/1.1 400 Bad Request\r\n', { garbage: 'HTTP/1.1 400 Bad Request' }],
    ['a code that changes mid-reply', '250-a\r\n251 b\r\n', { garbage: '251 b' }],
    ['a code out of range', '199 hm\r\n', { garbage: '199 hm' }],
  ])('%s', (_name, text, expected) => {
    expect(takeReply(text)).toEqual(expected);
  });
});

const ehlo = (...ext: string[]): SmtpReply => ({ code: 250, lines: ['mail.lan', ...ext] });

describe('the verdicts', () => {
  it.each([
    ['220 greeting', judgeGreeting({ code: 220, lines: ['hi'] }), null],
    [
      '554 greeting',
      judgeGreeting({ code: 554, lines: ['go away'] }),
      'banner:the server greeted with 554 go away, not 220',
    ],
    ['250 EHLO', judgeEhlo(ehlo()), null],
    ['502 EHLO', judgeEhlo({ code: 502, lines: ['no'] }), 'protocol:EHLO was answered 502 no'],
    ['STARTTLS offered and accepted', judgeStartTls(ehlo('STARTTLS'), { code: 220, lines: ['go'] }), null],
    ['STARTTLS not offered', judgeStartTls(ehlo('SIZE 10'), null), 'tls_required:the server does not offer STARTTLS'],
    [
      'STARTTLS refused',
      judgeStartTls(ehlo('starttls'), { code: 454, lines: ['not now'] }),
      'tls:STARTTLS was answered 454 not now',
    ],
  ])('%s', (_name, error, expected) => {
    expect(error && `${error.code}:${error.message}`).toBe(expected);
  });

  it('reads extensions by keyword, not by the host line', () => {
    expect(offers({ code: 250, lines: ['STARTTLS.lan'] }, 'STARTTLS')).toBe(false);
    expect(offers(ehlo('SIZE 35882577'), 'SIZE')).toBe(true);
  });
});
