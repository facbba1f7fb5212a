/** The test DNS server's wire encoding, byte by byte (RFC 1035 section 4). */
import { decodeQuery, DnsQuery, encodeName, encodeResponse, RCODE, RecordData } from './dns-wire';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

// id 0x1234, RD, one question: web.test A IN
const QUERY = hex('1234 0100 0001 0000 0000 0000  03 776562 04 74657374 00  0001 0001');
const QUESTION = hex('03 776562 04 74657374 00  0001 0001');

describe('decodeQuery', () => {
  it('reads id, flags, the lower-cased name and the type', () => {
    const upper = Buffer.from(QUERY);
    upper.write('WEB', 13, 'latin1');
    expect(decodeQuery(upper)).toEqual({
      id: 0x1234,
      flags: 0x0100,
      name: 'web.test',
      type: 1,
      question: upper.subarray(12),
    });
  });

  it('ignores what follows the question (an EDNS record)', () => {
    const withOpt = Buffer.concat([QUERY, hex('00 0029 1000 00000000 0000')]);
    expect(decodeQuery(withOpt)?.question).toEqual(QUESTION);
  });

  it.each<[string, Buffer]>([
    ['a response', hex('1234 8180 0001 0000 0000 0000 03 776562 00 0001 0001')],
    ['no question', hex('1234 0100 0000 0000 0000 0000 00 0001 0001')],
    ['a name that runs past the end', hex('1234 0100 0001 0000 0000 0000 09 776562')],
    ['a compressed name', hex('1234 0100 0001 0000 0000 0000 c00c 0001 0001')],
    ['a missing type', hex('1234 0100 0001 0000 0000 0000 03 776562 00 00')],
  ])('rejects %s', (_name, message) => {
    expect(decodeQuery(message)).toBeNull();
  });
});

describe('encodeResponse', () => {
  const query = decodeQuery(QUERY) as DnsQuery;
  const header = (rcode: number, answers: number): string =>
    `1234 ${(0x8580 | rcode).toString(16)} 0001 000${answers} 0000 0000`;
  const NAME = '03 776562 04 74657374 00';

  it.each<[string, RecordData, string]>([
    ['A', { type: 'A', address: '192.0.2.10' }, '0001 0001 0000003c 0004 c000020a'],
    ['AAAA', { type: 'AAAA', address: '2001:db8::10' }, '001c 0001 0000003c 0010 20010db8000000000000000000000010'],
    ['CNAME', { type: 'CNAME', name: 'a.b' }, '0005 0001 0000003c 0005 01 61 01 62 00'],
    ['NS', { type: 'NS', name: 'ns.b.' }, '0002 0001 0000003c 0006 02 6e73 01 62 00'],
    ['MX', { type: 'MX', priority: 10, exchange: 'mx.b' }, '000f 0001 0000003c 0008 000a 02 6d78 01 62 00'],
    ['TXT', { type: 'TXT', strings: ['hi', 'yo'] }, '0010 0001 0000003c 0006 02 6869 02 796f'],
  ])('encodes %s answers', (_type, data, answer) => {
    const expected = hex(`${header(RCODE.NOERROR, 1)} ${QUESTION.toString('hex')} ${NAME} ${answer}`);
    expect(encodeResponse(query, RCODE.NOERROR, [{ name: 'web.test', ttl: 60, data }])).toEqual(expected);
  });

  it.each([RCODE.NXDOMAIN, RCODE.SERVFAIL, RCODE.REFUSED])('answers rcode %i with no records', (rcode) => {
    expect(encodeResponse(query, rcode, [])).toEqual(hex(`${header(rcode, 0)} ${QUESTION.toString('hex')}`));
  });

  it('encodes names as length-prefixed labels, with or without the final dot', () => {
    expect(encodeName('web.test.')).toEqual(hex(NAME));
    expect(encodeName('web.test')).toEqual(hex(NAME));
  });
});
