/** The one mask for secret values in answers, exports and logs, and the one way to mask them in text. */
import { clip, oneLine } from '../validation/text-rules';

export const MASK = '********';

export function isMask(value: unknown): boolean {
  return value === MASK;
}

/** The shortest part of a URL masked on its own: shorter path segments are words like `hooks`, `api`. */
const URL_PART_MIN = 6;

/**
 * The parts of a URL that may be its secret, for maskSecretsIn: the whole URL, its path and
 * query, each path segment and query value long enough to be a token, and its user and password
 * (a Slack or Discord webhook URL's path *is* its secret; only scheme://host[:port] may be shown).
 */
export function urlSecretParts(href: string): string[] {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return [href];
  }
  const parts = [href, url.href, `${url.pathname}${url.search}`, url.username, url.password];
  for (const segment of url.pathname.split('/')) parts.push(segment);
  for (const [, value] of url.searchParams) parts.push(value);
  return [...new Set(parts)].filter((p) => p.length >= URL_PART_MIN);
}

/**
 * Replaces every secret in `text` by ********. Done on the whole text, before anything is cut: a
 * cut made first can split a secret, and the part before the cut then matches nothing and shows
 * (half a signing secret, the start of a webhook path token).
 *
 * Each secret is also looked for as a JSON string and a URL carry it (a receiver's answer often
 * quotes what it was sent), and overlapping or adjacent finds become one mask, so one secret
 * never leaves a piece of itself beside another's mask.
 *
 * `cut`: the text ends where something cut it (a read limit, a dropped connection), so a secret
 * may begin there without ending: a tail of the text that begins a secret is masked too, however
 * short.
 */
export function maskSecretsIn(text: string, secrets: readonly string[], cut = false): string {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s === '') continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(encodeURIComponent(s));
  }
  const spans: [number, number][] = [];
  for (const form of forms) {
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) spans.push([at, at + form.length]);
    if (cut) {
      for (let n = Math.min(form.length - 1, text.length); n > 0; n--) {
        if (text.endsWith(form.slice(0, n))) {
          spans.push([text.length - n, text.length]);
          break;
        }
      }
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let done = 0;
  let [start, end] = spans[0];
  for (const [s, e] of spans) {
    if (s <= end) {
      end = Math.max(end, e);
      continue;
    }
    out += `${text.slice(done, start)}${MASK}`;
    done = end;
    [start, end] = [s, e];
  }
  return `${out}${text.slice(done, start)}${MASK}${text.slice(end)}`;
}

/**
 * Text from outside (a receiver's answer, a mail server's reply, an error message) as a message
 * may quote it: secrets masked first, then made one line and cut to `max` characters. A cut
 * after masking cannot split a secret: every secret in the text is a mask by then, and a mask cut
 * short is still only asterisks.
 */
export function quoteMasked(text: string, secrets: readonly string[], max: number, cut = false): string {
  return clip(oneLine(maskSecretsIn(text, secrets, cut)), max);
}
