/**
 * The Prometheus text exposition format, version 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format): label values
 * escaped, numbers written the way the format reads them, and a writer that fills one reused
 * buffer so a scrape of 10,000 monitors does not allocate its whole answer as strings. Pure.
 */

export const PROM_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * A label value as the format wants it: backslash, double quote and line feed escaped (the only
 * three it names). Other control characters are legal in UTF-8 label values and pass as they are;
 * slugs and kinds cannot hold them, and a group or channel name that does is the owner's text.
 */
export function escapeLabel(value: string): string {
  // Most values need nothing: skip the three replaces (a scrape escapes thousands).
  if (!/[\\"\n]/.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text escapes backslash and line feed (not the quote). */
export function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A sample value: Go's float syntax, with the format's own words for the three special values. */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/** `{a="x",b="y"}` from pairs, values escaped; empty pairs give the empty string. */
export function labelSet(pairs: readonly (readonly [string, string])[]): string {
  if (pairs.length === 0) return '';
  return `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

export type MetricType = 'gauge' | 'counter';

/**
 * Writes an exposition into one growing buffer. The caller names each family once (HELP and
 * TYPE lines, then its samples: the format wants a family's samples together) and gives each
 * sample's name-and-labels part as one string it may keep between scrapes.
 */
export class PromWriter {
  private buf: Buffer;
  private at = 0;

  constructor(initial = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  /** Starts again at the beginning of the same buffer. */
  reset(): void {
    this.at = 0;
  }

  family(name: string, type: MetricType, help: string): void {
    this.text(`# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`);
  }

  /** One sample: `series` is the name with its label set (`farsight_blind` or `up{monitor="a"}`). */
  sample(series: string, value: number): void {
    this.text(series);
    this.value(value);
  }

  /**
   * One sample from bytes kept between scrapes: `head` (`name{`), the monitor's `labels` and `tail`
   * (`,status="up"}` or `}`). Copying bytes is the cheap part of a scrape of 10,000 monitors;
   * making or converting strings for each of its 130,000 samples was the dear one.
   */
  sampleOf(head: Buffer, labels: Buffer, tail: Buffer, value: number): void {
    const need = head.length + labels.length + tail.length;
    if (this.at + need > this.buf.length) this.grow(need);
    this.buf.set(head, this.at);
    this.buf.set(labels, this.at + head.length);
    this.buf.set(tail, this.at + head.length + labels.length);
    this.at += need;
    this.value(value);
  }

  /** ` <value>\n` */
  private value(value: number): void {
    this.byte(0x20);
    if (Number.isSafeInteger(value)) this.integer(value);
    else this.text(formatValue(value));
    this.byte(0x0a);
  }

  /** The exposition so far: a view of the writer's buffer, valid until the next reset. */
  bytes(): Buffer {
    return this.buf.subarray(0, this.at);
  }

  get length(): number {
    return this.at;
  }

  /**
   * Copies the string in a plain loop while it is ASCII (almost always: names, slugs, numbers).
   * Buffer.write is a call into C++ costing about half a microsecond each, and a scrape of 10,000
   * monitors writes over 100,000 samples: the loop is several times faster and allocates nothing.
   */
  private text(s: string): void {
    const n = s.length;
    if (this.at + n * 3 > this.buf.length) this.grow(n * 3);
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        // The rest as UTF-8 (a group or channel name in another script).
        at += buf.write(s.slice(i), at, 'utf8');
        break;
      }
      buf[at++] = c;
    }
    this.at = at;
  }

  private byte(c: number): void {
    if (this.at + 1 > this.buf.length) this.grow(1);
    this.buf[this.at++] = c;
  }

  /** A safe integer's decimal digits, written without making a string. */
  private integer(v: number): void {
    if (this.at + 17 > this.buf.length) this.grow(17);
    if (v < 0) {
      this.buf[this.at++] = 0x2d;
      v = -v;
    }
    let digits = 1;
    for (let p = 10; p <= v; p *= 10) digits++;
    let end = this.at + digits;
    this.at = end;
    do {
      this.buf[--end] = 0x30 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
  }

  private grow(need: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + need));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
}
