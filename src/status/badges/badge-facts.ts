/**
 * What each badge says and in which colour (docs/badges.md), and the badge routes' query rules.
 * Pure: the service hands in a public service's status, uptime and typical latency.
 */
import type { FieldError } from '../../common/http/api-error';
import type { MonitorStatus } from '../../probes/status';
import { BADGE_STYLES, Badge, BadgeStyle } from './badge-svg';

export const BADGE_RANGES = ['24h', '7d', '30d', '90d'] as const;
export type BadgeRange = (typeof BADGE_RANGES)[number];
export const DEFAULT_BADGE_RANGE: BadgeRange = '30d';
/** A label longer than this is refused: a badge is a word or two. */
export const LABEL_MAX = 40;

/**
 * Message colours. Each has a contrast of at least 4.5:1 with the white text on it (WCAG AA for
 * text of 11 px; badge-facts.spec.ts computes it), unlike shields.io's bright green and yellow.
 */
export const COLORS = {
  green: '#1a7f37',
  amber: '#8a5a00',
  red: '#c4281c',
  grey: '#5c6570',
  blue: '#0b5cad',
} as const;

const STATUS_WORDS: Record<MonitorStatus, { message: string; color: string }> = {
  up: { message: 'up', color: COLORS.green },
  slow: { message: 'slow', color: COLORS.amber },
  down: { message: 'down', color: COLORS.red },
  paused: { message: 'paused', color: COLORS.grey },
  unknown: { message: 'unknown', color: COLORS.grey },
};

export function statusBadge(label: string, status: MonitorStatus): Badge {
  return { label, ...STATUS_WORDS[status] };
}

/**
 * Uptime in percent (as the status page's model has it), rounded for people: two decimals, never 100 % while anything was
 * down (99.999 shows 99.99), green from 99.9 %, amber from 99 %, red below; grey "no data".
 */
export function uptimeBadge(label: string, pct: number | null): Badge {
  if (pct === null) return { label, message: 'no data', color: COLORS.grey };
  const shown = pct >= 100 ? '100' : (Math.floor(pct * 100) / 100).toFixed(2);
  const color = pct >= 99.9 ? COLORS.green : pct >= 99 ? COLORS.amber : COLORS.red;
  return { label, message: `${shown}%`, color };
}

export function latencyBadge(label: string, typicalMs: number | null): Badge {
  if (typicalMs === null) return { label, message: 'no data', color: COLORS.grey };
  const message =
    typicalMs >= 1000 ? `${(typicalMs / 1000).toFixed(typicalMs >= 10_000 ? 0 : 1)} s` : `${Math.round(typicalMs)} ms`;
  return { label, message, color: COLORS.blue };
}

/** The grey badge of a slug that names no public service. */
export function unknownBadge(label: string): Badge {
  return { label, message: 'unknown', color: COLORS.grey };
}

export interface BadgeQuery {
  style: BadgeStyle;
  range: BadgeRange;
  /** null: the badge's own label. */
  label: string | null;
}

/**
 * The query of a badge route, or every problem with it. A repeated parameter (an array from the
 * query parser) is refused like any other wrong value, naming the parameter.
 */
export function readBadgeQuery(
  q: Record<string, unknown>,
): { ok: true; query: BadgeQuery } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const style = q.style ?? 'flat';
  if (typeof style !== 'string' || !(BADGE_STYLES as readonly string[]).includes(style)) {
    errors.push({ field: 'style', message: `must be one of ${BADGE_STYLES.join(', ')}` });
  }
  const range = q.range ?? DEFAULT_BADGE_RANGE;
  if (typeof range !== 'string' || !(BADGE_RANGES as readonly string[]).includes(range)) {
    errors.push({ field: 'range', message: `must be one of ${BADGE_RANGES.join(', ')}` });
  }
  let label: string | null = null;
  if (q.label !== undefined) {
    const problem = labelProblem(q.label);
    if (problem) errors.push({ field: 'label', message: problem });
    else label = (q.label as string).trim();
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, query: { style: style as BadgeStyle, range: range as BadgeRange, label } };
}

function labelProblem(v: unknown): string | null {
  if (typeof v !== 'string') return 'must be given once, as text';
  const t = v.trim();
  if (t === '') return 'must not be empty';
  if ([...t].length > LABEL_MAX) return `must be at most ${LABEL_MAX} characters`;
  // Control characters and lone surrogates draw nothing a reader could see.
  if (/[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(t))
    return 'must be plain text, without control characters';
  return null;
}

/** A public name as a default label: long names are cut, as a badge is a word or two. */
export function defaultLabel(name: string): string {
  const chars = [...name];
  return chars.length > LABEL_MAX
    ? `${chars
        .slice(0, LABEL_MAX - 1)
        .join('')
        .trimEnd()}…`
    : name;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
export function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, b_] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b_);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
