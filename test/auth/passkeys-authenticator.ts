/**
 * A software authenticator for tests: what a browser and a platform authenticator produce for
 * navigator.credentials.create() and .get(), built by hand from the WebAuthn spec with a P-256
 * key (ES256), so the service's @simplewebauthn checks run on real bytes, nothing mocked.
 *
 * - clientDataJSON: {type, challenge, origin, crossOrigin}
 * - authenticatorData: SHA-256(rpId) | flags | signCount (u32 BE) | [aaguid | credIdLen | credId | COSE key]
 * - attestationObject: CBOR {fmt: "none", attStmt: {}, authData}
 * - assertion signature: ECDSA P-256 over authData | SHA-256(clientDataJSON), DER encoded
 *
 * Every part can be bent (origin, RP id, flags, counter, challenge) to play an attacker or a
 * broken authenticator.
 */
import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';

export const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40, ED: 0x80 } as const;

// --- a minimal CBOR encoder (RFC 8949): unsigned and negative integers, bytes, text, maps ---
type Cbor = number | string | Buffer | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const utf8 = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, utf8.length), utf8]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64u = (data: Buffer) => data.toString('base64url');

export interface Ceremony {
  /** The page's origin as the browser reports it. */
  origin?: string;
  /** The RP id the authenticator hashes into authenticatorData. */
  rpId?: string;
  /** Authenticator flags; defaults: UP|UV (and AT on registration). */
  flags?: number;
  /** Sign count to report (defaults: the authenticator's own, counting up when `counts`). */
  counter?: number;
  /** Sign another challenge than the one in the options. */
  challenge?: string;
  /** clientDataJSON type, e.g. to send a registration answer where a sign-in is expected. */
  type?: string;
}

export interface CreationOptionsLike {
  challenge: string;
  rp: { id?: string };
}

export interface RequestOptionsLike {
  challenge: string;
  rpId?: string;
}

export interface AttestationCredential {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
}

export interface AssertionCredential {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private signCount = 0;
  private userHandle: Buffer | null = null;

  /**
   * @param origin the page origin it is used from (the service's public origin)
   * @param counts whether it keeps a signature counter (synced passkeys often report 0 forever)
   */
  constructor(
    private readonly origin: string,
    private readonly counts = true,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  get count(): number {
    return this.signCount;
  }

  /** The COSE_Key of the public key: {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}. */
  coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter >>> 0, 0);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create(): a new credential with attestation "none". */
  create(options: CreationOptionsLike & { user?: { id: string } }, c: Ceremony = {}): AttestationCredential {
    const rpId = c.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    if (options.user?.id) this.userHandle = Buffer.from(options.user.id, 'base64url');
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.credentialId.length, 0);
    const attested = Buffer.concat([Buffer.alloc(16) /* aaguid of "none" */, idLen, this.credentialId, this.coseKey()]);
    const authData = this.authData(rpId, c.flags ?? FLAG.UP | FLAG.UV | FLAG.AT, c.counter ?? this.signCount, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      c.type ?? 'webauthn.create',
      c.challenge ?? options.challenge,
      c.origin ?? this.origin,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** navigator.credentials.get(): an assertion signed with the private key. */
  get(options: RequestOptionsLike, c: Ceremony = {}): AssertionCredential {
    const rpId = c.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    if (c.counter === undefined && this.counts) this.signCount += 1;
    const authData = this.authData(rpId, c.flags ?? FLAG.UP | FLAG.UV, c.counter ?? this.signCount);
    const clientDataJSON = this.clientData(
      c.type ?? 'webauthn.get',
      c.challenge ?? options.challenge,
      c.origin ?? this.origin,
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
      key: this.privateKey,
      dsaEncoding: 'der',
    });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(this.userHandle ? { userHandle: b64u(this.userHandle) } : {}),
      },
    };
  }
}
