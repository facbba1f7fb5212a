/**
 * Sign-in, owner and API key routes (spec "Sign-in routes", "Owner routes", "API key", "Owner,
 * session and passkey"). Their code lives in auth/, which this branch may not add files to, so
 * their schemas are kept here; the bodies that auth/ validates with DTOs are read from those DTOs.
 * Pure.
 */
import {
  anyObject,
  bool,
  described,
  int,
  JsonSchema,
  list,
  nullable,
  obj,
  oneOfValues,
  page,
  ref,
  SchemaSet,
  str,
  time,
} from '../../common/validation/common.schema';
import { dtoSchema } from '../../common/validation/dto.schema';
import { KEY_SCOPES } from '../../common/access/scope';
import { CreateKeyDto } from '../../auth/dto/create-key.dto';
import { SetupDto } from '../../auth/dto/setup.dto';

const CHALLENGE = str({
  description: 'bot-challenge token, when the server has a challenge configured (GET /auth/state gives the site key)',
});
const B64 = (what: string): JsonSchema => str({ description: `${what}, base64url` });

const ASSERTION = obj(
  {
    id: str(),
    rawId: B64('credential id'),
    type: oneOfValues(['public-key']),
    response: obj(
      {
        clientDataJSON: B64('client data'),
        authenticatorData: B64('authenticator data'),
        signature: B64('signature'),
        userHandle: nullable(B64('user handle')),
      },
      { required: ['clientDataJSON', 'authenticatorData', 'signature'] },
    ),
  },
  {
    required: ['id', 'rawId', 'type', 'response'],
    additionalProperties: true,
    description: 'a WebAuthn assertion (navigator.credentials.get), binary fields base64url',
  },
);

const ATTESTATION = obj(
  {
    id: str(),
    rawId: B64('credential id'),
    type: oneOfValues(['public-key']),
    response: obj(
      { clientDataJSON: B64('client data'), attestationObject: B64('attestation object'), transports: list(str()) },
      { required: ['clientDataJSON', 'attestationObject'] },
    ),
  },
  {
    required: ['id', 'rawId', 'type', 'response'],
    additionalProperties: true,
    description: 'a WebAuthn attestation (navigator.credentials.create), binary fields base64url',
  },
);

const OPTIONS = (what: string): JsonSchema =>
  obj({
    challenge_id: str(),
    public_key: anyObject({ description: `${what} (base64url), for navigator.credentials` }),
  });

const FRESH = obj({ fresh_until: time({ description: 'step-up holds until then' }) });
const CODE = str({ pattern: '^\\d{6}$', description: 'the 6-digit authenticator code' });
const RECOVERY = str({ description: 'one recovery code (each works once)' });

const SESSION_ROW = obj({
  id: int(1),
  current: bool(),
  method: str({ description: 'how it signed in, e.g. passkey or password' }),
  created_at: time(),
  seen_at: nullable(time()),
  expires_at: time(),
  ip: nullable(str()),
  device: nullable(str()),
});
const PASSKEY_ROW = obj({ id: int(1), label: str(), created_at: time(), last_used_at: nullable(time()) });

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function authSchemas(): SchemaSet {
  return {
    AuthState: obj({
      setup_needed: bool(),
      signed_in: bool(),
      methods: obj({ passkey: bool(), password: bool() }),
      challenge_site_key: nullable(str()),
    }),
    ChallengeBody: obj({ challenge: CHALLENGE }, { required: [] }),
    PasskeyOptions: OPTIONS('request options: challenge, rpId, timeout, userVerification required, allowCredentials'),
    PasskeyCreationOptions: OPTIONS('creation options'),
    PasskeyVerify: obj({ challenge_id: str(), credential: ASSERTION }),
    PasswordSignIn: obj({ email: str(), password: str(), challenge: CHALLENGE }, { required: ['email', 'password'] }),
    Ticket: obj({ ticket: str({ description: 'valid 5 minutes' }), next: oneOfValues(['code']) }),
    CodeSignIn: {
      ...obj({ ticket: str(), code: CODE, recovery_code: RECOVERY }, { required: ['ticket'] }),
      oneOf: [{ required: ['code'] }, { required: ['recovery_code'] }],
    },
    Forgot: obj({ email: str(), challenge: CHALLENGE }, { required: ['email'] }),
    Reset: {
      ...obj(
        { token: str(), password: str(), code: CODE, recovery_code: RECOVERY, challenge: CHALLENGE },
        { required: ['token', 'password'] },
      ),
      oneOf: [{ required: ['code'] }, { required: ['recovery_code'] }],
    },
    SetupInfo: obj({
      valid: bool(),
      email: nullable(str()),
      expires_at: nullable(time()),
      totp: described(
        nullable(obj({ secret: str(), uri: str(), qr_svg: str() })),
        'the authenticator to scan; null when the link is not valid',
      ),
    }),
    Setup: {
      ...dtoSchema(SetupDto),
      description:
        "the owner's email, a password (docs/security.md) and the first authenticator code; `public_url` (only while no public URL is configured, and only the origin the page is open at) saves that address as the public URL (docs/configuration.md#the-public-url)",
    },
    SetupDone: obj({ ok: bool({ const: true }), recovery_codes: list(str(), { minItems: 10, maxItems: 10 }) }),
    EnrollInfo: obj({ valid: bool(), expires_at: nullable(time()) }),
    EnrollVerify: obj(
      { challenge_id: str(), credential: ATTESTATION, label: str() },
      { required: ['challenge_id', 'credential'] },
    ),
    StepUpPassword: obj({ password: str(), code: CODE }),
    StepUpVerify: obj({ challenge_id: str(), credential: ASSERTION }),
    Fresh: FRESH,
    Owner: obj({
      email: str(),
      created_at: time(),
      session: obj({ method: str(), created_at: time(), fresh_until: time() }),
      passkeys: int(0),
      totp: bool(),
      recovery_codes_left: int(0),
    }),
    SessionList: obj({ items: list(SESSION_ROW) }),
    Passkey: PASSKEY_ROW,
    PasskeyList: obj({ items: list(PASSKEY_ROW) }),
    PasskeyAdd: obj(
      { challenge_id: str(), credential: ATTESTATION, label: str() },
      { required: ['challenge_id', 'credential'] },
    ),
    PasskeyLabel: obj({ label: str() }),
    PasswordChange: obj({ current: str(), new: str() }),
    SignedOut: obj({
      ok: bool({ const: true }),
      signed_out: int(0, undefined, { description: 'other sessions signed out' }),
    }),
    TotpOptions: obj({ setup_id: str(), secret: str(), uri: str(), qr_svg: str() }),
    TotpConfirm: obj({ setup_id: str(), code: CODE }),
    RecoveryCodes: obj({ codes: list(str(), { minItems: 10, maxItems: 10 }) }),
    BlockedList: page(
      obj(
        {
          ip: str({ description: 'the address, or for IPv6 its /64 written `xxxx:xxxx:xxxx:xxxx::/64`' }),
          blocked_at: time(),
          blocked_until: time(),
          failures: int(0, undefined, {
            description: 'failed attempts: those that caused the block plus any made while it lasts',
          }),
          reason: oneOfValues(['failures', 'repeated'], {
            description: 'failures: 5 in 15 minutes (1 hour); repeated: the third block within a day (1 day)',
          }),
        },
        { description: 'A blocked address (the item fields are a decision: docs/security.md "Throttling")' },
      ),
    ),
    ApiKey: obj({
      id: int(1),
      name: str(),
      prefix: str({ pattern: '^fs_.{4}$', description: '`fs_` plus 4 characters' }),
      scope: oneOfValues(KEY_SCOPES),
      created_at: time(),
      expires_at: nullable(time()),
      last_used_at: nullable(time()),
      last_ip: nullable(str()),
    }),
    ApiKeyCreated: obj({
      id: int(1),
      name: str(),
      prefix: str(),
      scope: oneOfValues(KEY_SCOPES),
      created_at: time(),
      expires_at: nullable(time()),
      last_used_at: nullable(time()),
      last_ip: nullable(str()),
      key: str({ pattern: '^fs_[0-9a-f]{48}$', description: 'the key itself, shown only in this answer' }),
    }),
    ApiKeyList: page(ref('ApiKey'), int()),
    CreateKey: {
      ...dtoSchema(CreateKeyDto),
      description: 'expires_at: RFC 3339 in the future, or null/absent for a key that never expires',
    },
  };
}
