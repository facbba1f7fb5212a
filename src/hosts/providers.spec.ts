import { providerOf, proxyOf } from './providers';

describe('DNS providers', () => {
  it.each([
    [['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'], 'Cloudflare'],
    [['NS-123.AWSDNS-45.COM.'], 'Amazon Route 53'],
    [['ns-cloud-a1.googledomains.com'], 'Google Cloud DNS'],
    [['ns1-05.azure-dns.com'], 'Azure DNS'],
    [['hydrogen.ns.hetzner.com'], 'Hetzner'],
    [['ns1.digitalocean.com'], 'DigitalOcean'],
    [['ns31.domaincontrol.com'], 'GoDaddy'],
    [['dns1.registrar-servers.com'], 'Namecheap'],
    [['curitiba.ns.porkbun.com'], 'Porkbun'],
    [['ns1.desec.io'], 'deSEC'],
    [['ns1.example.net', 'ns2.he.net'], 'Hurricane Electric'],
    [['ns1.example.net'], null],
    [['cloudflare.com.evil.example'], null],
    [[], null],
  ])('recognises %j as %p', (ns, name) => {
    expect(providerOf(ns)?.name ?? null).toBe(name);
  });

  it('gives each known provider a dashboard on https', () => {
    expect(providerOf(['ada.ns.cloudflare.com'])?.dashboard).toBe('https://dash.cloudflare.com/');
  });

  it.each([
    ['104.16.132.229', 'Cloudflare'],
    ['172.67.1.1', 'Cloudflare'],
    ['2606:4700:3033::6815:1', 'Cloudflare'],
    ['203.0.113.7', null],
    ['127.0.0.1', null],
    ['2001:db8::1', null],
    ['not an address', null],
  ])('reads %s as behind the proxy of %p', (ip, provider) => {
    expect(proxyOf(ip)).toBe(provider);
  });
});
