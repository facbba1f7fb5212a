/**
 * DNS providers as data: recognised from the names of a zone's nameservers, with the page where
 * the owner edits records, and the address ranges of the providers' own proxies (a host that
 * answers with one of them is `proxied`: the CA and visitors reach the provider, not this server).
 * Pure. Ranges as published by the providers (Cloudflare: https://www.cloudflare.com/ips/).
 */
import { BlockList, isIP } from 'node:net';

export interface Provider {
  name: string;
  dashboard: string;
  /** Matches a nameserver's name (lower case, no final dot). */
  ns: RegExp;
}

export const PROVIDERS: readonly Provider[] = [
  { name: 'Cloudflare', dashboard: 'https://dash.cloudflare.com/', ns: /\.ns\.cloudflare\.com$/ },
  {
    name: 'Amazon Route 53',
    dashboard: 'https://console.aws.amazon.com/route53/v2/hostedzones',
    ns: /^ns-\d+\.awsdns-\d+\./,
  },
  {
    name: 'Google Cloud DNS',
    dashboard: 'https://console.cloud.google.com/net-services/dns/zones',
    ns: /^ns-cloud-[a-z]\d\.googledomains\.com$/,
  },
  {
    name: 'Azure DNS',
    dashboard: 'https://portal.azure.com/#browse/Microsoft.Network%2FdnsZones',
    ns: /\.azure-dns\.(com|net|org|info)$/,
  },
  {
    name: 'DigitalOcean',
    dashboard: 'https://cloud.digitalocean.com/networking/domains',
    ns: /^ns\d\.digitalocean\.com$/,
  },
  {
    name: 'Hetzner',
    dashboard: 'https://dns.hetzner.com/',
    ns: /\.(ns\.hetzner\.(com|de)|your-server\.de|first-ns\.de|second-ns\.(com|de))$/,
  },
  { name: 'OVHcloud', dashboard: 'https://www.ovh.com/manager/#/web/domain', ns: /\.ovh\.(net|ca)$/ },
  { name: 'Gandi', dashboard: 'https://admin.gandi.net/domain/', ns: /\.gandi\.net$/ },
  { name: 'GoDaddy', dashboard: 'https://dcc.godaddy.com/control/portfolio', ns: /\.domaincontrol\.com$/ },
  { name: 'Namecheap', dashboard: 'https://ap.www.namecheap.com/domains/list/', ns: /\.registrar-servers\.com$/ },
  { name: 'Porkbun', dashboard: 'https://porkbun.com/account/domainsSpeedy', ns: /\.porkbun\.com$/ },
  { name: 'Linode', dashboard: 'https://cloud.linode.com/domains', ns: /^ns\d\.linode\.com$/ },
  { name: 'DNSimple', dashboard: 'https://dnsimple.com/dashboard', ns: /\.dnsimple(-edge)?\.(com|net|org|info)$/ },
  { name: 'deSEC', dashboard: 'https://desec.io/domains', ns: /^ns\d\.desec\.(io|org)$/ },
  { name: 'Hurricane Electric', dashboard: 'https://dns.he.net/', ns: /^ns\d\.he\.net$/ },
  { name: 'IONOS', dashboard: 'https://my.ionos.com/domains', ns: /\.ui-dns\.(com|de|org|biz)$/ },
  { name: 'INWX', dashboard: 'https://www.inwx.com/en/domain/index', ns: /\.inwx\.(de|eu|net)$/ },
  { name: 'NameSilo', dashboard: 'https://www.namesilo.com/account_domains.php', ns: /\.dnsowl\.com$/ },
  { name: 'Vercel', dashboard: 'https://vercel.com/dashboard/domains', ns: /\.vercel-dns\.com$/ },
];

export interface ProxyRanges {
  provider: string;
  v4: readonly string[];
  v6: readonly string[];
}

export const PROXIES: readonly ProxyRanges[] = [
  {
    provider: 'Cloudflare',
    v4: [
      '173.245.48.0/20',
      '103.21.244.0/22',
      '103.22.200.0/22',
      '103.31.4.0/22',
      '141.101.64.0/18',
      '108.162.192.0/18',
      '190.93.240.0/20',
      '188.114.96.0/20',
      '197.234.240.0/22',
      '198.41.128.0/17',
      '162.158.0.0/15',
      '104.16.0.0/13',
      '104.24.0.0/14',
      '172.64.0.0/13',
      '131.0.72.0/22',
    ],
    v6: [
      '2400:cb00::/32',
      '2606:4700::/32',
      '2803:f800::/32',
      '2405:b500::/32',
      '2405:8100::/32',
      '2a06:98c0::/29',
      '2c0f:f248::/32',
    ],
  },
];

/** The provider whose nameservers these are (the first one recognised), or null. */
export function providerOf(nameservers: readonly string[]): Provider | null {
  for (const ns of nameservers) {
    const name = ns.toLowerCase().replace(/\.$/, '');
    const found = PROVIDERS.find((p) => p.ns.test(name));
    if (found) return found;
  }
  return null;
}

const PROXY_LISTS = PROXIES.map((p) => {
  const list = new BlockList();
  for (const cidr of p.v4) addSubnet(list, cidr, 'ipv4');
  for (const cidr of p.v6) addSubnet(list, cidr, 'ipv6');
  return { provider: p.provider, list };
});

function addSubnet(list: BlockList, cidr: string, type: 'ipv4' | 'ipv6'): void {
  const [net, bits] = cidr.split('/');
  list.addSubnet(net, Number(bits), type);
}

/** The provider whose proxy answers at this address, or null. */
export function proxyOf(ip: string): string | null {
  const family = isIP(ip);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return PROXY_LISTS.find((p) => p.list.check(ip, type))?.provider ?? null;
}
