/**
 * Custom hosts of the status page as the owner types them, made canonical: lower case, punycode
 * (IDNA, as the DNS and certificates know the name), no final dot, never an address. Pure.
 */
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { requestHost } from '../../hosts/host-names';

export type HostCheck = { ok: true; host: string } | { ok: false; message: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function normalizeHost(raw: string): HostCheck {
  const text = raw.trim().toLowerCase();
  if (text === '') return { ok: false, message: 'must not be empty' };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(text) || /[/?#@\s]/.test(text)) {
    return { ok: false, message: 'must be a host name only, without scheme, path or user (e.g. status.example.com)' };
  }
  if (text.includes('*'))
    return { ok: false, message: 'must be one host name: wildcards are not supported (list each host, at most 5)' };
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) return { ok: false, message: 'must be a host name, not an IP address' };
  if (text.includes(':')) return { ok: false, message: 'must be a host name without a port' };
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  // domainToASCII applies IDNA (Unicode to xn--) and answers '' for a name it cannot encode,
  // including names that end in a number ("a.b.123"), which URLs read as IPv4 addresses.
  const ascii = domainToASCII(name);
  if (ascii === '') return { ok: false, message: 'is not a valid host name' };
  // The URL parser reads "10.1" or "0x7f.1" as IPv4 addresses.
  if (isIP(ascii) !== 0) return { ok: false, message: 'must be a host name, not an IP address' };
  if (ascii.length > 253) return { ok: false, message: 'must be at most 253 characters long' };
  const labels = ascii.split('.');
  // RFC 6761: localhost names never leave the machine, so no CA can check them.
  if (labels[labels.length - 1] === 'localhost')
    return { ok: false, message: 'must be a public host name: localhost names cannot get a certificate' };
  if (labels.length < 2)
    return { ok: false, message: 'must be a full domain name with a dot (e.g. status.example.com)' };
  if (!labels.every((l) => LABEL.test(l))) {
    return { ok: false, message: 'each part between dots must be 1-63 letters, digits or inner hyphens' };
  }
  return { ok: true, host: ascii };
}

/** The host of a request (Host header): one rule for the main listener and the custom hosts' ones. */
export { requestHost } from '../../hosts/host-names';

/** Whether a request's Host header names one of the page's own hosts, where `/` is the status page. */
export function onPageHost(hosts: readonly string[], hostHeader: string | undefined): boolean {
  const host = requestHost(hostHeader);
  return host !== null && hosts.includes(host);
}
