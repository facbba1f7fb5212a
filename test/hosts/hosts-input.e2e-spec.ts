/**
 * Custom hosts as the owner types them (422 with `hosts[i]`, or normalised as the spec says), and
 * server_ips discovered without FARSIGHT_SERVER_IPS: an address a host points at counts as this
 * server's once it answers a token only this process knows on port 80 (127.0.53.3 here).
 */
import type { DnsFarm } from '../../harness/servers/dns-farm';
import { bearer } from '../support/app';
import { baseZone, HostsApp, startHostsApp, startZone, Zone } from './support';

const IP = '127.0.53.3';

describe('custom hosts: input and discovered addresses', () => {
  let zone: Zone;
  let dns: DnsFarm;
  let a: HostsApp;

  beforeAll(async () => {
    zone = {
      ...baseZone(IP),
      'here.example.test': [{ type: 'A', address: IP }],
      'gone.example.test': [{ type: 'A', address: '127.0.53.250' }],
    };
    dns = await startZone(IP, zone);
    // No FARSIGHT_SERVER_IPS; a CA that refuses connections.
    a = await startHostsApp(IP, { FARSIGHT_SERVER_IPS: '', FARSIGHT_ACME_DIRECTORY: `http://${IP}:9/dir` });
  });

  afterAll(async () => {
    await a?.t.close();
    await dns?.close();
  });

  const put = (hosts: unknown) => a.t.http.put('/api/v1/status-page').set(bearer(a.admin)).send({ hosts });

  it.each<[string, unknown, string, string]>([
    ['an IPv4 address', ['ok.example.org', '192.0.2.1'], 'hosts[1]', 'not an IP address'],
    ['an IPv6 address', ['[2001:db8::1]'], 'hosts[0]', 'not an IP address'],
    ['a wildcard', ['*.example.org'], 'hosts[0]', 'wildcards are not supported'],
    ['localhost', ['localhost'], 'hosts[0]', 'localhost names'],
    ['a localhost name', ['status.localhost'], 'hosts[0]', 'localhost names'],
    ["the dashboard's own host", ['ok.example.org', 'FARSIGHT.test.'], 'hosts[1]', "the dashboard's own host"],
    ['an over-long label', [`${'a'.repeat(64)}.example.org`], 'hosts[0]', '1-63 letters'],
    ['a name over 253 characters', [`${'abcdefghi.'.repeat(26)}org`], 'hosts[0]', 'at most 253'],
    [
      'more than 5 hosts',
      ['a.example.org', 'b.example.org', 'c.example.org', 'd.example.org', 'e.example.org', 'f.example.org'],
      'hosts',
      'at most 5',
    ],
    ['the same host twice', ['a.example.org', 'A.example.org.'], 'hosts[1]', 'repeats a.example.org'],
    ['a port', ['a.example.org:8443'], 'hosts[0]', 'without a port'],
  ])('refuses %s with 422 and changes nothing', async (_name, hosts, field, words) => {
    const res = await put(hosts).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    expect(res.body.error.fields.find((f: { field: string }) => f.field === field).message).toContain(words);
    const page = await a.t.http.get('/api/v1/status-page').set(bearer(a.admin)).expect(200);
    expect(page.body.hosts).toEqual([]);
  });

  it('stores hosts lower case, as punycode, without the final dot', async () => {
    const res = await put(['Status.Example.ORG.', 'bücher.example']).expect(200);
    expect(res.body.hosts).toEqual(['status.example.org', 'xn--bcher-kva.example']);
    await a.hosts.settled();
    const page = await a.t.http.get('/api/v1/status-page').set(bearer(a.admin)).expect(200);
    expect(page.body.domains.map((d: { host: string }) => d.host)).toEqual([
      'status.example.org',
      'xn--bcher-kva.example',
    ]);
    // Unknown to the test's DNS: nothing is known, and the answer says why.
    expect(page.body.domains[0]).toMatchObject({
      state: 'checking',
      detail: expect.stringContaining('no DNS zone holds status.example.org'),
    });
  });

  it("counts an address as this server's once it answers our token on port 80", async () => {
    expect((await a.t.http.get('/api/v1/status-page').set(bearer(a.admin))).body.server_ips).not.toContain(IP);
    await a.setHosts(['here.example.test', 'gone.example.test']);
    const page = (await a.t.http.get('/api/v1/status-page').set(bearer(a.admin)).expect(200)).body;
    expect(page.server_ips).toContain(IP);
    const [here, gone] = page.domains;
    // Pointing here, so a certificate was ordered: the CA refusing connections fails it.
    expect(here).toMatchObject({ host: 'here.example.test', state: 'failed', points_at: [IP] });
    expect(here.detail).toContain(`could not connect to the ACME server at http://${IP}:9/dir (connection refused)`);
    expect(gone).toMatchObject({ host: 'gone.example.test', state: 'dns_elsewhere', points_at: ['127.0.53.250'] });
    expect(gone.records).toEqual(expect.arrayContaining([{ type: 'A', name: 'gone.example.test', value: IP }]));
  });
});
