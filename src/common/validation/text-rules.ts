/**
 * Rules for short texts that people name things with, and for texts that end up in HTTP headers.
 * Pure: every DTO or rule that takes such a text asks here, so there is one answer per question.
 */

/**
 * The one rule of every text people enter and others read: names, groups, tags, descriptions,
 * public names, notes (issue 42: a rule for `name` alone let a public group spoof the status page).
 * Refused: C0 and C1 controls and DEL (NUL, escapes), the Unicode line and paragraph separators,
 * the byte order mark, and the bidirectional controls (U+061C, U+200E/F, U+202A-U+202E,
 * U+2066-U+2069). The bidi ones are invisible but reorder what is shown next to them, so
 * "gpj.\u202Eexe" reads as "exe.jpg" on a dashboard, a status page or in an alert. A multi-line
 * text (a description, a note) may also hold line breaks (CR, LF) and tabs; a one-line text may not.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
const CONTROLS_BUT_LINES =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
/**
 * Half of a UTF-16 pair without the other half: JSON can spell one (`"\ud800"`), but it is no
 * character, and SQLite's UTF-8 would store it as U+FFFD.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The rule in words, for the route description (OpenAPI) of each text field. */
export const TEXT_RULE_WORDS = {
  line: 'one line of text: no control or bidirectional-override characters, no lone surrogate',
  lines: 'text: line breaks and tabs allowed; no other control or bidirectional-override characters, no lone surrogate',
  name: 'a name: not blank, no control or bidirectional-override characters, no lone surrogate',
} as const;

/** Why a text is refused by the one text rule, or null when it is fine. Blank is fine here (see nameProblem). */
export function textProblem(text: string, opts: { lines?: boolean } = {}): string | null {
  if (LONE_SURROGATE.test(text))
    return 'must not contain a lone surrogate (half of a UTF-16 pair, such as \\ud800): it is not a character';
  if (opts.lines) {
    return CONTROLS_BUT_LINES.test(text)
      ? 'must not contain control characters other than line breaks and tabs (NUL, bidirectional controls such as U+202E)'
      : null;
  }
  return CONTROLS.test(text)
    ? 'must not contain control characters (line breaks, tabs, NUL, bidirectional controls such as U+202E)'
    : null;
}

/**
 * What a missing or blank name is told (a form shows it under the field: "Name: ..."), in the
 * words a person would use rather than the type's ("must be a name").
 */
export const NAME_MISSING = 'is needed: type a short name you will recognise, such as "Home router"';

/** Why a display name (monitor name, public_name, API key name, channel name, ...) is refused, or null: the text rule, one line, not blank. */
export function nameProblem(text: string): string | null {
  const problem = textProblem(text);
  if (problem) return problem;
  if (text.trim() === '') return NAME_MISSING;
  return null;
}

/**
 * RFC 9110 section 5.5 field values: visible ASCII, space, tab and obs-text (here the Latin-1
 * letters U+00A0-U+00FF; the C1 controls U+0080-U+009F are refused with the other controls).
 * Node refuses to send anything else ("Invalid character in header content"), so a value outside
 * this set would make every check of the monitor fail.
 */
const FIELD_VALUE = /^[\t\u0020-\u007e\u00a0-\u00ff]*$/;

/** Why text cannot be sent as an HTTP header value, or null when it can. */
export function fieldValueProblem(text: string): string | null {
  if (FIELD_VALUE.test(text)) return null;
  return 'must be visible ASCII, spaces, tabs or Latin-1 letters: no line breaks, control characters, bidirectional controls or other Unicode';
}

/** RFC 9110 section 5.1 field names are tokens (section 5.6.2). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function isFieldName(text: string): boolean {
  return TOKEN.test(text);
}

/** Collapses line breaks, tabs and other controls into single spaces: a title is one line. */
export function oneLine(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Shortens to at most `max` characters, ending in "…" when cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}
