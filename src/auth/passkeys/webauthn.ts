/**
 * The WebAuthn ceremonies, on @simplewebauthn/server: options for the browser, and the checks of
 * what it signed (challenge, origin, RP id, user presence and verification, signature, counter).
 * User verification is always required: a passkey alone is a full sign-in, so the authenticator
 * must have checked a PIN or a biometric. No Nest, no database: the services store and look up.
 */
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { CHALLENGE_TTL_MS } from './challenge-book';
import type { RelyingParty } from './relying-party';

/** How long the browser may wait for the person: as long as the challenge lives. */
export const CEREMONY_TIMEOUT_MS = CHALLENGE_TTL_MS;

/**
 * The library and its dependencies (ASN.1, CBOR, COSE) take a third of a second to load: loaded at
 * the first ceremony rather than on every start of the service.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | null = null;
const webauthn = () => (library ??= import('@simplewebauthn/server'));

/** What the service keeps of a passkey to check its assertions. */
export interface StoredCredential {
  /** base64url, as the browser reports it. */
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[] | null;
}

/** Why a credential was not accepted. */
export type Refusal =
  | 'expired'
  | 'challenge'
  | 'origin'
  | 'rp_id'
  | 'user_presence'
  | 'user_verification'
  | 'counter'
  | 'signature'
  | 'unknown_credential'
  | 'format';

const REFUSAL_WORDS: Record<Refusal, string> = {
  expired: 'the passkey request expired or was already used: start again',
  challenge: 'the passkey signed another request (it was made for an older or a different challenge)',
  origin: 'the passkey was used on another web address than this Farsight (FARSIGHT_PUBLIC_URL)',
  rp_id: "the passkey belongs to another site (its RP id is not this Farsight's host name)",
  user_presence: 'the authenticator did not confirm that a person was present',
  user_verification: 'the authenticator did not verify you (PIN, fingerprint or face); Farsight requires it',
  counter: "the authenticator's signature counter went backwards, which a copied (cloned) passkey does",
  signature: 'the signature does not match the passkey',
  unknown_credential: 'this passkey is not registered here',
  format: 'the passkey answer could not be read',
};

export class PasskeyRefused extends Error {
  constructor(
    readonly reason: Refusal,
    /** The library's own words, for the log only. */
    readonly detail: string = reason,
  ) {
    super(REFUSAL_WORDS[reason]);
    this.name = 'PasskeyRefused';
  }
}

/** Sorts the library's error messages into our reasons. */
export function refusalOf(message: string): Refusal {
  const rules: [RegExp, Refusal][] = [
    [/\bRP ID\b/i, 'rp_id'],
    [/origin/i, 'origin'],
    [/user verification/i, 'user_verification'],
    [/user (not )?present|user presence/i, 'user_presence'],
    [/counter/i, 'counter'],
    [/challenge/i, 'challenge'],
  ];
  return rules.find(([re]) => re.test(message))?.[1] ?? 'format';
}

function refused(err: unknown): PasskeyRefused {
  if (err instanceof PasskeyRefused) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PasskeyRefused(refusalOf(message), message.slice(0, 300));
}

const b64u = (text: string) => Buffer.from(text, 'base64url');

/** navigator.credentials.get() options for a sign-in or step-up with the owner's passkeys. */
export async function requestOptions(
  rp: RelyingParty,
  challenge: string,
  credentials: readonly Pick<StoredCredential, 'credentialId' | 'transports'>[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const lib = await webauthn();
  return lib.generateAuthenticationOptions({
    rpID: rp.id,
    challenge: b64u(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: credentials.map((c) => ({
      id: c.credentialId,
      ...(c.transports ? { transports: c.transports as AuthenticatorTransport[] } : {}),
    })),
  });
}

/** navigator.credentials.create() options for a new passkey of the owner. */
export async function creationOptions(
  rp: RelyingParty,
  challenge: string,
  user: { handle: Uint8Array; name: string },
  existing: readonly Pick<StoredCredential, 'credentialId' | 'transports'>[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const lib = await webauthn();
  return lib.generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new Uint8Array(user.handle),
    userName: user.name,
    userDisplayName: user.name,
    challenge: b64u(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    // The same authenticator twice would be two rows for one key: the browser refuses it.
    excludeCredentials: existing.map((c) => ({
      id: c.credentialId,
      ...(c.transports ? { transports: c.transports as AuthenticatorTransport[] } : {}),
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

/** A verified assertion: the counter to store. Throws PasskeyRefused. */
export async function checkAssertion(
  rp: RelyingParty,
  expectedChallenge: string,
  response: AuthenticationResponseJSON,
  stored: StoredCredential,
): Promise<{ newCounter: number }> {
  const lib = await webauthn();
  let verified: boolean;
  let newCounter: number;
  try {
    const out = await lib.verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: stored.credentialId, publicKey: new Uint8Array(stored.publicKey), counter: stored.counter },
      requireUserVerification: true,
    });
    verified = out.verified;
    newCounter = out.authenticationInfo.newCounter;
  } catch (err) {
    throw refused(err);
  }
  if (!verified) throw new PasskeyRefused('signature');
  return { newCounter };
}

export interface NewCredential extends StoredCredential {
  backedUp: boolean;
}

/** A verified registration (attestation "none" or any format the library checks). Throws PasskeyRefused. */
export async function checkAttestation(
  rp: RelyingParty,
  expectedChallenge: string,
  response: RegistrationResponseJSON,
): Promise<NewCredential> {
  const lib = await webauthn();
  try {
    const out = await lib.verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserPresence: true,
      requireUserVerification: true,
    });
    if (!out.verified) throw new PasskeyRefused('signature');
    const info = out.registrationInfo;
    // The id the browser reports must be the one the authenticator put in its signed data.
    if (info.credential.id !== response.id)
      throw new PasskeyRefused('format', 'credential id differs from the attested one');
    return {
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: response.response.transports?.length ? response.response.transports : null,
      backedUp: info.credentialBackedUp,
    };
  } catch (err) {
    throw refused(err);
  }
}

/**
 * Whether a new counter may replace the stored one: it must grow, unless the authenticator does
 * not count at all (both 0; passkeys synced between devices often do not).
 */
export function counterMayFollow(stored: number, next: number): boolean {
  return (stored === 0 && next === 0) || next > stored;
}
