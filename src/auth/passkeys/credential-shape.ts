/**
 * A first look at a credential before any ceremony state is spent: the parts that must decode
 * (clientDataJSON to a JSON object with type, challenge and origin; authenticatorData to at least
 * its fixed 37 bytes; rawId equal to id) do, or the request is malformed (422 on the dotted field).
 * Whether the parts are right is for webauthn.ts. Pure.
 */
import type { FieldError } from '../../common/http/api-error';

export interface CredentialLike {
  id: string;
  rawId: string;
  response: { clientDataJSON: string; authenticatorData?: string };
}

export function credentialShapeProblems(c: CredentialLike, field = 'credential'): FieldError[] {
  const out: FieldError[] = [];
  if (c.rawId !== c.id)
    out.push({ field: `${field}.rawId`, message: 'must equal id (both base64url of the credential id)' });
  let client: unknown = null;
  try {
    client = JSON.parse(Buffer.from(c.response.clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    client = null;
  }
  const ok =
    typeof client === 'object' &&
    client !== null &&
    ['type', 'challenge', 'origin'].every((k) => typeof (client as Record<string, unknown>)[k] === 'string');
  if (!ok) {
    out.push({
      field: `${field}.response.clientDataJSON`,
      message: 'must be base64url of the client data JSON (type, challenge, origin)',
    });
  }
  if (
    c.response.authenticatorData !== undefined &&
    Buffer.from(c.response.authenticatorData, 'base64url').length < 37
  ) {
    out.push({
      field: `${field}.response.authenticatorData`,
      message: 'is too short to be authenticator data (at least 37 bytes)',
    });
  }
  return out;
}
