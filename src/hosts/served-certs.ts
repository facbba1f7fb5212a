/** The certificates the HTTPS listener serves, by host name (SNI), held in memory as TLS contexts. */
import * as tls from 'node:tls';
import type { StoredCert } from './cert-store';

export class ServedCerts {
  private readonly contexts = new Map<string, { context: tls.SecureContext; notAfter: number; serial: string }>();

  put(cert: StoredCert): void {
    this.contexts.set(cert.host, {
      context: tls.createSecureContext({ key: cert.key, cert: cert.chain }),
      notAfter: cert.notAfter,
      serial: cert.serial,
    });
  }

  drop(host: string): void {
    this.contexts.delete(host);
  }

  context(host: string): tls.SecureContext | null {
    return this.contexts.get(host)?.context ?? null;
  }

  has(host: string): boolean {
    return this.contexts.has(host);
  }
}
