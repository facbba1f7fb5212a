import type { CheckError } from '../check-result';
import type { DnsRecord } from '../kinds';
import { describeAnswers, judgeDnsExpect } from './dns-answers';

describe('judgeDnsExpect', () => {
  it.each<[DnsRecord, string[], string | null]>([
    ['A', ['192.0.2.10'], null],
    ['A', ['192.0.2.10', '192.0.2.11'], '192.0.2.11'],
    ['AAAA', ['2001:db8::10'], '2001:DB8::10'],
    ['CNAME', ['web.test'], 'WEB.test'],
    ['CNAME', ['web.test'], 'web.test.'],
    ['MX', ['10 mx1.mail.test', '20 mx2.mail.test'], 'mx2.mail'],
    ['MX', ['10 mx1.mail.test'], '10 mx1'],
    ['NS', ['ns1.zone.test'], 'ns1'],
    ['TXT', ['v=spf1 -all', 'hello world'], 'hello world'],
  ])('%s answers %j contain %j', (record, answers, needle) => {
    expect(judgeDnsExpect(record, answers, needle)).toBeNull();
  });

  it.each<[DnsRecord, string[], string, CheckError]>([
    [
      'A',
      ['192.0.2.10'],
      '192.0.2.99',
      { code: 'expect', message: 'no A answer contains "192.0.2.99" (got 192.0.2.10)' },
    ],
    [
      'TXT',
      ['v=spf1 -all'],
      'V=SPF1',
      { code: 'expect', message: 'no TXT answer contains "V=SPF1" (got "v=spf1 -all")' },
    ],
    [
      'MX',
      ['10 mx1.mail.test'],
      '20 ',
      { code: 'expect', message: 'no MX answer contains "20 " (got 10 mx1.mail.test)' },
    ],
  ])('%s answers %j do not contain %j', (record, answers, needle, error) => {
    expect(judgeDnsExpect(record, answers, needle)).toEqual(error);
  });

  it('trims a long answer list in the message', () => {
    const answers = Array.from({ length: 100 }, (_, i) => `10.0.0.${i}`);
    const error = judgeDnsExpect('A', answers, '1.1.1.1');
    expect(error?.message).toHaveLength(501);
    expect(error?.message.endsWith('…')).toBe(true);
  });
});

describe('describeAnswers', () => {
  it.each<[DnsRecord, string[], string]>([
    ['A', ['192.0.2.10', '192.0.2.11'], 'A: 192.0.2.10, 192.0.2.11'],
    ['TXT', ['v=spf1 -all', 'say "hi"'], 'TXT: "v=spf1 -all", "say \\"hi\\""'],
    ['MX', ['10 mx1.mail.test'], 'MX: 10 mx1.mail.test'],
  ])('%s %j reads %j', (record, answers, detail) => {
    expect(describeAnswers(record, answers)).toBe(detail);
  });
});
