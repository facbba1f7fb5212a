/** The one place that turns stored epoch milliseconds into the wire format (RFC 3339 UTC with milliseconds). */
export function toIso(ms: number): string;
export function toIso(ms: number | null | undefined): string | null;
export function toIso(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  return new Date(ms).toISOString();
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp with an explicit offset; returns epoch ms or null when it is not one. */
export function parseIso(text: unknown): number | null {
  if (typeof text !== 'string' || text.length > 40) return null;
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, , mo, d, h, mi, s] = m.map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const ms = Date.parse(text.toUpperCase());
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2026-02-31 over to March; reject dates that do not exist.
  const offset = m[8].toUpperCase() === 'Z' ? 0 : parseOffset(m[8]);
  const local = new Date(ms + offset * 60_000);
  if (local.getUTCDate() !== d || local.getUTCMonth() + 1 !== mo) return null;
  return ms;
}

function parseOffset(text: string): number {
  const sign = text[0] === '-' ? -1 : 1;
  return sign * (Number(text.slice(1, 3)) * 60 + Number(text.slice(4, 6)));
}

/** A duration for people (timeline lines, alerts): "45 s", "12 min", "3 h 5 min", "2 days 4 h": rounded to the unit below the largest. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) {
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  const hours = Math.round(minutes / 60);
  const d = Math.floor(hours / 24);
  const h = hours % 24;
  return `${d} day${d === 1 ? '' : 's'}${h ? ` ${h} h` : ''}`;
}

/** "2026-11-23 11:02 UTC": minutes are enough in an alert, and UTC is never ambiguous. */
export function formatWhen(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
