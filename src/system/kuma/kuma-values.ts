/**
 * Reading one value of a Kuma row: SQLite hands back 0/1 for booleans, a JSON backup true/false;
 * numbers may be text in a hand-edited file. Each helper says what it found, never throws. Pure.
 */
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

export function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

export function bool(v: unknown, fallback: boolean): boolean {
  if (v === 1 || v === true || v === '1' || v === 'true') return true;
  if (v === 0 || v === false || v === '0' || v === 'false') return false;
  return fallback;
}

/** JSON text parsed, or `undefined` when it is not JSON (null and '' give null). */
export function json(v: unknown): unknown {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return undefined;
  }
}

/** Cuts text to `max` characters (code points), saying so in `notes`. */
export function fit(text: string, max: number, what: string, notes: string[]): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  notes.push(`${what} cut to ${max} characters`);
  return chars.slice(0, max).join('');
}

/** A value kept within [min, max], saying so in `notes` when it had to move. */
export function clamp(value: number, min: number, max: number, what: string, notes: string[]): number {
  if (value < min) {
    notes.push(`${what} raised from ${value} to ${min}, the least this service takes`);
    return min;
  }
  if (value > max) {
    notes.push(`${what} lowered from ${value} to ${max}, the most this service takes`);
    return max;
  }
  return value;
}
