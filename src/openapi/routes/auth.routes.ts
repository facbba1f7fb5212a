/** Spec "Sign-in routes (no sign-in needed)" and "Owner routes (session only)". */
import { pageQuery, ref } from '../../common/validation/common.schema';
import type { Answer, RouteDoc } from '../route-doc';

const API = '/api/v1';
const pub = { public: true } as const;
const owner = { scope: 'admin', sessionOnly: true } as const;
const ownerStepUp = { ...owner, stepUp: true } as const;
/** The step-up routes: a session (which passes every scope) confirming it is the owner. */
const session = { scope: 'read', sessionOnly: true } as const;
const body = (name: string) => ({ schema: ref(name) });
const ok = (description: string): Record<number, Answer> => ({ 200: { description, schema: ref('Ok') } });
const COOKIE = { 'Set-Cookie': { description: 'the `service_session` cookie', schema: { type: 'string' } } };
const signedIn: Record<number, Answer> = { 200: { description: '`{ok: true}` and the session cookie', schema: ref('Ok'), headers: COOKIE } };
const TOKEN = { token: { description: 'the token from the link' } };
const SIGN = 'Sign-in';
const OWN = 'Owner';

export const AUTH_ROUTES: RouteDoc[] = [
  { method: 'get', path: `${API}/auth/state`, id: 'authState', tag: SIGN, summary: 'Whether setup is needed, whether signed in, which methods', access: pub, answers: { 200: { description: 'the state', schema: ref('AuthState') } } },
  { method: 'post', path: `${API}/auth/passkey/options`, id: 'passkeyOptions', tag: SIGN, summary: 'Start a passkey sign-in', access: pub, body: body('ChallengeBody'), answers: { 200: { description: 'request options', schema: ref('PasskeyOptions') } } },
  { method: 'post', path: `${API}/auth/passkey/verify`, id: 'passkeyVerify', tag: SIGN, summary: 'Finish a passkey sign-in', access: pub, body: body('PasskeyVerify'), answers: signedIn },
  { method: 'post', path: `${API}/auth/password`, id: 'passwordSignIn', tag: SIGN, summary: 'Sign in with email and password (step one)', description: 'Then POST /auth/code within 5 minutes.', access: pub, body: body('PasswordSignIn'), errors: [429], answers: { 200: { description: 'a ticket for the second step', schema: ref('Ticket') } } },
  { method: 'post', path: `${API}/auth/code`, id: 'codeSignIn', tag: SIGN, summary: 'Finish a password sign-in with an authenticator or recovery code', access: pub, body: body('CodeSignIn'), answers: signedIn },
  { method: 'post', path: `${API}/auth/forgot`, id: 'forgotPassword', tag: SIGN, summary: 'Ask for a password reset link', description: 'Always `{ok: true}`: it never says whether the email matched.', access: pub, body: body('Forgot'), answers: ok('always') },
  { method: 'post', path: `${API}/auth/reset`, id: 'resetPassword', tag: SIGN, summary: 'Set a new password with the reset link', access: pub, body: body('Reset'), errors: [429], answers: signedIn },
  { method: 'post', path: `${API}/auth/logout`, id: 'logout', tag: SIGN, summary: 'Sign out this session', access: pub, answers: ok('signed out') },
  { method: 'get', path: `${API}/auth/setup/{token}`, id: 'setupInfo', tag: SIGN, summary: 'Read a first-run setup link', access: pub, params: TOKEN, answers: { 200: { description: 'whether the link is valid, and the authenticator to scan', schema: ref('SetupInfo') } } },
  {
    method: 'post', path: `${API}/auth/setup/{token}`, id: 'completeSetup', tag: SIGN, summary: 'Create the owner', access: pub, params: TOKEN, body: body('Setup'), errors: [429],
    answers: { 200: { description: '`{ok: true, recovery_codes}` and the session cookie', schema: ref('SetupDone'), headers: COOKIE } },
  },
  { method: 'get', path: `${API}/auth/enroll/{token}`, id: 'enrollInfo', tag: SIGN, summary: 'Read a break-glass passkey link', description: 'Links are issued by `farsight enroll-link`.', access: pub, params: TOKEN, answers: { 200: { description: 'whether the link is valid', schema: ref('EnrollInfo') } } },
  { method: 'post', path: `${API}/auth/enroll/{token}/options`, id: 'enrollOptions', tag: SIGN, summary: 'Start adding a passkey with a break-glass link', access: pub, params: TOKEN, body: body('ChallengeBody'), answers: { 200: { description: 'creation options', schema: ref('PasskeyCreationOptions') } } },
  { method: 'post', path: `${API}/auth/enroll/{token}/verify`, id: 'enrollVerify', tag: SIGN, summary: 'Add the passkey and sign in', access: pub, params: TOKEN, body: body('EnrollVerify'), answers: signedIn },
  { method: 'post', path: `${API}/auth/step-up/passkey/options`, id: 'stepUpPasskeyOptions', tag: SIGN, summary: 'Start confirming it is you with a passkey (session)', access: session, body: { schema: ref('Empty'), required: false }, answers: { 200: { description: 'request options', schema: ref('PasskeyOptions') } } },
  { method: 'post', path: `${API}/auth/step-up/passkey/verify`, id: 'stepUpPasskeyVerify', tag: SIGN, summary: 'Confirm with a passkey', access: session, body: body('StepUpVerify'), answers: { 200: { description: 'fresh until', schema: ref('Fresh') } } },
  { method: 'post', path: `${API}/auth/step-up/password`, id: 'stepUpPassword', tag: SIGN, summary: 'Confirm with password and code', access: session, body: body('StepUpPassword'), errors: [429], answers: { 200: { description: 'fresh until', schema: ref('Fresh') } } },

  { method: 'get', path: `${API}/me`, id: 'getOwner', tag: OWN, summary: 'The owner', access: owner, answers: { 200: { description: 'the owner', schema: ref('Owner') } } },
  { method: 'get', path: `${API}/me/sessions`, id: 'listSessions', tag: OWN, summary: 'Signed-in sessions', access: owner, answers: { 200: { description: 'sessions', schema: ref('SessionList') } } },
  { method: 'delete', path: `${API}/me/sessions/{id}`, id: 'revokeSession', tag: OWN, summary: 'Sign a session out', access: ownerStepUp, answers: ok('revoked') },
  { method: 'post', path: `${API}/me/sessions/revoke-others`, id: 'revokeOtherSessions', tag: OWN, summary: 'Sign every other session out', access: ownerStepUp, body: { schema: ref('Empty'), required: false }, answers: ok('revoked') },
  { method: 'get', path: `${API}/me/passkeys`, id: 'listPasskeys', tag: OWN, summary: 'Passkeys', access: owner, answers: { 200: { description: 'passkeys', schema: ref('PasskeyList') } } },
  { method: 'post', path: `${API}/me/passkeys/options`, id: 'addPasskeyOptions', tag: OWN, summary: 'Start adding a passkey', access: ownerStepUp, body: { schema: ref('Empty'), required: false }, answers: { 200: { description: 'creation options', schema: ref('PasskeyCreationOptions') } } },
  { method: 'post', path: `${API}/me/passkeys/verify`, id: 'addPasskeyVerify', tag: OWN, summary: 'Add the passkey', access: ownerStepUp, body: body('PasskeyAdd'), answers: { 201: { description: 'the passkey', schema: ref('Passkey') } } },
  { method: 'patch', path: `${API}/me/passkeys/{id}`, id: 'renamePasskey', tag: OWN, summary: 'Rename a passkey', access: owner, body: body('PasskeyLabel'), answers: { 200: { description: 'the passkey', schema: ref('Passkey') } } },
  { method: 'delete', path: `${API}/me/passkeys/{id}`, id: 'removePasskey', tag: OWN, summary: 'Remove a passkey', access: ownerStepUp, answers: ok('removed') },
  { method: 'post', path: `${API}/me/password`, id: 'changePassword', tag: OWN, summary: 'Change the password', description: 'Signs out every other session.', access: ownerStepUp, body: body('PasswordChange'), errors: [429], answers: { 200: { description: 'changed', schema: ref('SignedOut') } } },
  { method: 'post', path: `${API}/me/totp/options`, id: 'totpOptions', tag: OWN, summary: 'Start replacing the authenticator', access: ownerStepUp, body: { schema: ref('Empty'), required: false }, answers: { 200: { description: 'the new secret to scan', schema: ref('TotpOptions') } } },
  { method: 'post', path: `${API}/me/totp`, id: 'replaceTotp', tag: OWN, summary: 'Replace the authenticator', description: 'Signs out every other session.', access: ownerStepUp, body: body('TotpConfirm'), answers: { 200: { description: 'replaced', schema: ref('SignedOut') } } },
  { method: 'post', path: `${API}/me/recovery-codes`, id: 'newRecoveryCodes', tag: OWN, summary: 'New recovery codes', description: 'The old codes stop working.', access: ownerStepUp, body: { schema: ref('Empty'), required: false }, answers: { 200: { description: '10 new codes', schema: ref('RecoveryCodes') } } },
  { method: 'get', path: `${API}/me/blocked-ips`, id: 'listBlockedIps', tag: OWN, summary: 'Addresses blocked after failed sign-ins, newest block first', access: { scope: 'admin' }, accessNote: 'The one owner route an admin API key may read.', query: pageQuery(), answers: { 200: { description: 'blocked addresses', schema: ref('BlockedList') } } },
  { method: 'delete', path: `${API}/me/blocked-ips/{ip}`, id: 'unblockIp', tag: OWN, summary: 'Unblock an address', access: ownerStepUp, answers: ok('unblocked') },
];
