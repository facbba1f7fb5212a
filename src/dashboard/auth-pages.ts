/**
 * View models of the sign-in pages and of the landing page. The templates (views/auth/) only
 * format; times are written in UTC and shown in the visitor's zone by the page script. Pure.
 */
import { formatWhen, toIso } from '../common/time';

/** What every sign-in page tells its script (as data attributes of <body>). */
export interface PageFrame {
  title: string;
  /** The sign-in page: the safe path to return to afterwards (next-path.ts). */
  next?: string;
  /** The page's script under /auth/assets/. */
  script: string;
  /** Where passkeys work (FARSIGHT_PUBLIC_URL's origin): the script compares the page's own. */
  publicOrigin: string;
  /** Why passkeys cannot work with this public URL, or empty. */
  passkeyProblem: string;
  /** The bot challenge's site key, or empty. */
  siteKey: string;
}

export interface Moment {
  iso: string;
  text: string;
}

function moment(ms: number): Moment {
  return { iso: toIso(ms), text: formatWhen(ms) };
}

const METHOD_WORDS: Record<string, string> = {
  passkey: 'a passkey',
  password: 'password and authenticator code',
  recovery: 'password and a recovery code',
  setup: 'the first-run setup link',
  enroll: 'a break-glass enrolment link',
  reset: 'a password reset',
};

export interface HomeView {
  email: string;
  method: string;
  since: Moment;
  passkeys: { id: number; label: string; created: Moment; lastUsed: Moment | null }[];
}

export function homeView(
  signedIn: { email: string; method: string; since: number },
  passkeys: readonly { id: number; label: string; created_at: string; last_used_at: string | null }[],
): HomeView {
  return {
    email: signedIn.email,
    method: METHOD_WORDS[signedIn.method] ?? signedIn.method,
    since: moment(signedIn.since),
    passkeys: passkeys.map((p) => ({
      id: p.id,
      label: p.label,
      created: moment(Date.parse(p.created_at)),
      lastUsed: p.last_used_at ? moment(Date.parse(p.last_used_at)) : null,
    })),
  };
}
