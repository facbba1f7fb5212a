/**
 * The owner's own mail: a notice of every new sign-in, and the password-reset link. View models
 * the templates (views/email/owner.html.hbs and owner.text.hbs) only format. Pure, but for the
 * rendering at the end.
 *
 * Subjects read well in a phone's notification list: what happened first ("New sign-in: passkey,
 * Firefox on Linux"), never a secret (the reset link is only in the body).
 */
import { formatWhen } from '../common/time';
import { render, renderText } from '../common/resources/views';

export interface MailFact {
  label: string;
  value: string;
}

export interface OwnerMailView {
  subject: string;
  heading: string;
  /** Paragraphs before the facts. */
  intro: string[];
  facts: MailFact[];
  /** The one button (the reset link), or null. */
  action: { label: string; url: string } | null;
  /** Paragraphs after the facts and the button: what to do if this was not the owner. */
  outro: string[];
  publicUrl: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** How a session began, in words (SessionEntity.method). */
export const SIGN_IN_WORDS: Record<string, string> = {
  passkey: 'passkey',
  password: 'password and authenticator code',
  recovery: 'password and a recovery code',
  setup: 'first-run setup link',
  enroll: 'break-glass enrolment link (a new passkey)',
  reset: 'password reset (new password and a code)',
};

export interface SignInFacts {
  method: string;
  ip: string | null;
  /** "Firefox on Linux", or null when the browser did not say. */
  device: string | null;
  at: number;
  publicUrl: string;
}

function origin(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

export function signInNotice(f: SignInFacts): OwnerMailView {
  const how = SIGN_IN_WORDS[f.method] ?? f.method;
  const who = f.device ?? 'an unknown browser';
  return {
    subject: `New sign-in to Farsight: ${how.split(' (')[0]}, ${who}`,
    heading: 'New sign-in to your Farsight',
    intro: [`Someone signed in to ${origin(f.publicUrl)} as you.`],
    facts: [
      { label: 'Method', value: how },
      { label: 'Device', value: who },
      { label: 'Address', value: f.ip || 'unknown' },
      { label: 'When', value: formatWhen(f.at) },
    ],
    action: null,
    outro: [
      'If this was you, there is nothing to do.',
      'If it was not: sign in, end that session under Security → Sessions, and change your password and authenticator there. Changing either signs out every other session.',
    ],
    publicUrl: origin(f.publicUrl),
  };
}

export interface ResetFacts {
  /** The reset page with its single-use token. */
  url: string;
  expiresAt: number;
  ip: string | null;
  device: string | null;
  at: number;
  publicUrl: string;
}

export function resetMail(f: ResetFacts): OwnerMailView {
  return {
    subject: 'Reset your Farsight password',
    heading: 'Reset your password',
    intro: [
      `Someone asked to reset the password of ${origin(f.publicUrl)}. The link below works once, until ${formatWhen(f.expiresAt)}.`,
      'You will also need a code from your authenticator app, or one of your recovery codes.',
    ],
    facts: [
      { label: 'Asked from', value: f.ip || 'unknown address' },
      { label: 'Device', value: f.device ?? 'unknown browser' },
      { label: 'When', value: formatWhen(f.at) },
    ],
    action: { label: 'Choose a new password', url: f.url },
    outro: ['If you did not ask for this, ignore this email: your password stays as it is.'],
    publicUrl: origin(f.publicUrl),
  };
}

export function renderOwnerMail(view: OwnerMailView): RenderedMail {
  const model = view as unknown as Record<string, unknown>;
  return {
    subject: view.subject,
    text: renderText('email/owner.text', model),
    html: render('email/owner.html', model),
  };
}
