/**
 * Certificates: the facts we report (`cert`), how a failed verification maps to `cert_expired` or
 * `cert_invalid`, and the trust store. We always handshake with rejectUnauthorized false and
 * verify in the secureConnect listener, so the certificate is known even when it is rejected;
 * the listener runs before any request byte is sent.
 */
import { createHash } from 'node:crypto';
import * as tls from 'node:tls';
import type { CertInfo, CheckError } from '../check-result';
import { toIso } from '../../common/time';
import { colonHex, judgeCertPin } from '../judge/cert-pin';
import type { CheckerEnv } from './env';
import { failure } from './result-builders';

const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const INVALID_MESSAGES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'certificate chain ends in an untrusted self-signed root',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate is not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate is not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT: 'certificate is not signed by a trusted authority',
  CERT_UNTRUSTED: 'certificate is not trusted',
  CERT_REVOKED: 'certificate is revoked',
  CERT_SIGNATURE_FAILURE: 'certificate signature is invalid',
};

export function certInfo(cert: tls.PeerCertificate | undefined): CertInfo | null {
  if (!cert || !cert.valid_to) return null;
  const notAfter = Date.parse(cert.valid_to);
  if (Number.isNaN(notAfter)) return null;
  const issuer = first(cert.issuer?.CN) ?? first(cert.issuer?.O) ?? '';
  const subject = first(cert.subject?.CN) ?? firstAltName(cert.subjectaltname) ?? '';
  return { not_after: notAfter, issuer, subject };
}

/** Maps an OpenSSL verification code; null when the code is not about the certificate. */
export function certFailure(code: string, cert: CertInfo | null): CheckError | null {
  if (EXPIRED.has(code)) {
    const when = cert ? ` (valid until ${toIso(cert.not_after).slice(0, 10)})` : '';
    const text = code === 'CERT_HAS_EXPIRED' ? 'certificate has expired' : 'certificate is not valid yet';
    return failure('cert_expired', `${text}${when}`);
  }
  const message = INVALID_MESSAGES[code];
  if (message) return failure('cert_invalid', message);
  if (code.startsWith('CERT_') || code.endsWith('_CERT')) {
    return failure('cert_invalid', `certificate is not valid (${code})`);
  }
  return null;
}

/**
 * Judges the handshake of a socket made with rejectUnauthorized false: chain first (OpenSSL's
 * verdict), then the name. `identity` is the name we meant to reach (the URL host or SNI).
 */
export function verifyPeer(socket: tls.TLSSocket, identity: string, cert: CertInfo | null): CheckError | null {
  if (!socket.authorized) {
    const code = String(socket.authorizationError ?? 'UNKNOWN');
    return certFailure(code, cert) ?? failure('cert_invalid', `certificate is not valid (${code})`);
  }
  const mismatch = tls.checkServerIdentity(identity, socket.getPeerCertificate());
  if (mismatch) {
    const names = cert?.subject ? ` (it is for ${cert.subject})` : '';
    return failure('cert_invalid', `certificate does not match ${identity}${names}`);
  }
  return null;
}

/**
 * The verdict on a handshake: a pinned fingerprint (`cert_sha256`) replaces verification of the
 * chain and the name (the pin says exactly which certificate to trust, so a self-signed or
 * private-CA one passes and any other fails); without a pin, `verify` false accepts anything.
 */
export function judgePeer(
  socket: tls.TLSSocket,
  identity: string,
  cert: CertInfo | null,
  pin: string | null,
  verify: boolean,
): CheckError | null {
  if (pin !== null) {
    const raw = socket.getPeerCertificate()?.raw;
    if (!raw) return failure('tls', 'the server presented no certificate');
    return judgeCertPin(pin, leafSha256(raw));
  }
  return verify ? verifyPeer(socket, identity, cert) : null;
}

/** The SHA-256 fingerprint of a DER certificate, in the stored form of `cert_sha256`. */
export function leafSha256(der: Buffer): string {
  return colonHex(createHash('sha256').update(der).digest('hex'));
}

// One secure context per env: building it parses every root certificate, far too slow per check.
const trustByEnv = new WeakMap<CheckerEnv, tls.SecureContext>();

/** TLS options that trust the system roots plus env.ca. */
export function trustOptions(env: CheckerEnv): { secureContext?: tls.SecureContext } {
  if (!env.ca) return {};
  let context = trustByEnv.get(env);
  if (!context) {
    const extra = typeof env.ca === 'string' ? [env.ca] : env.ca;
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ...extra] });
    trustByEnv.set(env, context);
  }
  return { secureContext: context };
}

/** Node's checkServerIdentity is replaced by verifyPeer, which knows the name we meant. */
export function skipNodeIdentityCheck(): undefined {
  return undefined;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function firstAltName(altNames: string | undefined): string | undefined {
  const m = altNames ? /(?:DNS|IP Address):([^,\s]+)/.exec(altNames) : null;
  return m?.[1];
}
