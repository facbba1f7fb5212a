/**
 * Where the sign-in page returns after signing in: the page that was asked for, when it is a path
 * of this site. Anything a browser could read as another site is refused (null, and the page goes
 * to /): `//evil` and `/\evil` (browsers read a backslash as a slash), absolute URLs, control
 * characters (a tab or newline inside `//` is dropped by URL parsers), and the sign-in pages
 * themselves (a loop). Pure; the one place of this rule.
 */
const MAX_LENGTH = 2048;
const SIGN_IN_PAGES = /^\/(signin|forgot|reset|enroll|setup)(?:[/?#]|$)/;

export function safeNextPath(text: string | undefined | null): string | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_LENGTH) return null;
  if (!text.startsWith('/') || text.startsWith('//')) return null;
  if (text.includes('\\')) return null;
  if (/[\u0000-\u001f\u007f]/.test(text)) return null;
  if (SIGN_IN_PAGES.test(text)) return null;
  // Resolved against a placeholder origin, a safe path stays on it.
  const url = new URL(text, 'http://farsight.invalid');
  if (url.origin !== 'http://farsight.invalid') return null;
  return text;
}
