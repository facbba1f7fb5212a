import { judgeDns, recordsFor } from './dns-verdict';

const SERVER = ['203.0.113.7', '2001:db8::7'];
const ours = (ip: string) => SERVER.includes(ip);

describe("judging a host's DNS", () => {
  it.each<[string, string[], string, string]>([
    ['no address', [], 'missing', 'create A 203.0.113.7 and AAAA 2001:db8::7'],
    ['only here', ['203.0.113.7'], 'here', 'points at this server'],
    ['both families here', ['203.0.113.7', '2001:db8::7'], 'here', 'points at this server'],
    ['elsewhere', ['198.51.100.1'], 'elsewhere', 'change the record to A 203.0.113.7'],
    ['here and elsewhere', ['203.0.113.7', '2001:db8::99'], 'elsewhere', 'remove that record'],
    ['through Cloudflare', ['104.16.1.1', '104.16.1.2'], 'proxied', "Cloudflare's proxy"],
    ['one proxied address is enough', ['203.0.113.7', '172.64.1.1'], 'proxied', 'DNS only'],
  ])('%s', (_name, pointsAt, verdict, words) => {
    const j = judgeDns('status.example.org', pointsAt, ours, SERVER);
    expect(j.verdict).toBe(verdict);
    expect(j.detail).toContain(words);
  });

  it("asks for FARSIGHT_SERVER_IPS when the server's address is unknown", () => {
    expect(judgeDns('s.example.org', [], () => false, []).detail).toContain('FARSIGHT_SERVER_IPS');
  });

  it('advises an A record per IPv4 address and an AAAA per IPv6 address', () => {
    expect(recordsFor('status.example.org', SERVER)).toEqual([
      { type: 'A', name: 'status.example.org', value: '203.0.113.7' },
      { type: 'AAAA', name: 'status.example.org', value: '2001:db8::7' },
    ]);
  });
});
