/**
 * Certificates and keys on disk, in the data dir (spec: certificates live there; the database
 * backup does not carry them, and a lost one is simply ordered again):
 *   <data dir>/acme/account.key      the ACME account key (ECDSA P-256)
 *   <data dir>/acme/account.json     the account's URL at each ACME directory it was registered with
 *   <data dir>/certs/<host>.key      a host's private key
 *   <data dir>/certs/<host>.crt      its certificate chain (leaf first)
 * Directories 0700, files 0600 whatever the umask; each file is written to a temporary name and
 * renamed, so a crash never leaves half a key.
 */
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export interface StoredCert {
  host: string;
  key: string;
  chain: string;
  notAfter: number;
  serial: string;
}

export class CertStore {
  constructor(private readonly dataDir: string) {}

  private dir(name: 'acme' | 'certs'): string {
    const dir = path.join(this.dataDir, name);
    fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    fs.chmodSync(dir, DIR_MODE);
    return dir;
  }

  /** The account key, created on first use. */
  accountKey(create: () => Buffer): Buffer {
    const file = path.join(this.dir('acme'), 'account.key');
    if (fs.existsSync(file)) return fs.readFileSync(file);
    const key = create();
    writePrivate(file, key);
    return key;
  }

  /** The account's URL at `directory`, once registered there. */
  accountUrl(directory: string): string | null {
    const urls = this.accountUrls();
    return typeof urls[directory] === 'string' ? urls[directory] : null;
  }

  /** Remembers (or, with null, forgets: the CA no longer knows it) the account's URL at `directory`. */
  setAccountUrl(directory: string, url: string | null): void {
    const urls = this.accountUrls();
    if (url === null) delete urls[directory];
    else urls[directory] = url;
    writePrivate(path.join(this.dir('acme'), 'account.json'), Buffer.from(JSON.stringify(urls, null, 2)));
  }

  private accountUrls(): Record<string, string> {
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(this.dir('acme'), 'account.json'), 'utf8')) as unknown;
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, string>)
        : {};
    } catch {
      return {};
    }
  }

  /** The host's certificate, or null when there is none or it cannot be read as one. */
  load(host: string): StoredCert | null {
    const base = path.join(this.dir('certs'), host);
    try {
      const key = fs.readFileSync(`${base}.key`, 'utf8');
      const chain = fs.readFileSync(`${base}.crt`, 'utf8');
      return { host, key, chain, ...readLeaf(chain) };
    } catch {
      return null;
    }
  }

  save(host: string, key: string, chain: string): StoredCert {
    const facts = readLeaf(chain);
    const base = path.join(this.dir('certs'), host);
    writePrivate(`${base}.key`, Buffer.from(key));
    writePrivate(`${base}.crt`, Buffer.from(chain));
    return { host, key, chain, ...facts };
  }
}

/** The leaf (first certificate of the chain): its expiry and serial. Throws on anything else. */
export function readLeaf(chain: string): { notAfter: number; serial: string } {
  const leaf = new X509Certificate(chain);
  return { notAfter: Date.parse(leaf.validTo), serial: leaf.serialNumber };
}

function writePrivate(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w', FILE_MODE);
  try {
    fs.fchmodSync(fd, FILE_MODE);
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}
