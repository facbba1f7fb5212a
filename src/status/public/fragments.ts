/**
 * What a rebuilt status page reuses from the build before it, and the rules that decide it: the
 * one place to read them.
 *
 * A page of 100 services over 90 days has 9,000 bars. After every change of the page's settings
 * (or once its 30 s are up) the whole page used to be made anew: 9,000 bar objects, their HTML,
 * and a 1 MB `JSON.stringify`, although almost none of those bars had changed.
 *
 * 1. A bar is made from its period, its tally and its state alone (public-model.ts, toBar). It is
 *    **reused when those are equal** to what the bar at the same place of the same strip (a
 *    service's or a section's, in the same range) was made from in the last build, and also when
 *    a bar made anew is equal to that one field by field (today's bar: its open span adds up time
 *    every moment, which a bar at 100 % does not show).
 * 2. Nothing is invalidated by events, so no event can be missed: a check landing changes a
 *    tally; a day rolling over or another time zone changes the periods (every id and label is
 *    compared once per build, and the whole last build is left aside when one differs); a service
 *    watched from another moment changes a state.
 * 3. A bar is never changed once made, so what is written from it is kept beside it (WeakMaps:
 *    it goes with the bar): its JSON, its markup in each bar style. A strip whose bars were all
 *    reused is the last build's array itself, and its joined JSON and markup (as text and as
 *    bytes) are kept the same way. The home page's rows around the strips are kept in home-html.ts.
 *
 * What the answers keep whole, and what drops them (settings, logo, icon, a monitor changed or
 * deleted, a maintenance window starting or ending, the 30 s of the spec), is in
 * public-status.service.ts; the rollups that can no longer change are kept in tally-cache.ts.
 */
import { BAR_STATES, BarState, Tallies, Tally } from './bars';
import type { Period } from './periods';
import type { PublicBar, PublicStatus } from './public-model';

/** The bars of each strip in the last build of each range; strips not in a build are dropped with it. */
export class BarMemo {
  private readonly byRange = new Map<string, { periods: string; strips: Map<string, Strip> }>();

  /**
   * One build of `range` over `periods`: bars() for each strip, then done() keeps what this build
   * made. A bar shows its period's id and label (the label holds the time zone): when any of them
   * changed (a day rolled over, another zone), nothing of the last build is reused.
   */
  round(range: string, periods: readonly Period[]): BarRound {
    const key = periods.map((p) => `${p.id} ${p.label}`).join('\n');
    const last = this.byRange.get(range);
    return new BarRound(last?.periods === key ? last.strips : new Map(), (strips) =>
      this.byRange.set(range, { periods: key, strips }),
    );
  }
}

/** A strip as the last build made it, with what each bar was made from. */
interface Strip {
  bars: PublicBar[];
  /** Its bars' states as ranks (bars.ts, barRank). */
  ranks: Uint8Array;
  /** Its tallies (every field of a tally is an input). */
  values: Float64Array;
}

export class BarRound {
  private readonly next = new Map<string, Strip>();

  constructor(
    private readonly last: ReadonlyMap<string, Strip>,
    private readonly keep: (next: Map<string, Strip>) => void,
  ) {}

  /**
   * The bars of a strip (`name`: "s12" a service's, "g..." a section's), `make(period, tally,
   * state)` for each bar whose inputs differ from the last build's bar at that place, which is
   * reused otherwise; the last build's array itself when every bar is. `ranks`: the bars' states
   * as ranks (bars.ts, barRank).
   */
  bars(
    name: string,
    periods: readonly Period[],
    tallies: Tallies,
    ranks: Uint8Array,
    make: (p: Period, t: Tally, state: BarState) => PublicBar,
  ): PublicBar[] {
    const n = periods.length;
    const values = tallies.data;
    const width = values.length / Math.max(n, 1);
    const old = this.last.get(name);
    const comparable = old !== undefined && old.bars.length === n && old.values.length === values.length;
    // A new array only from the first bar that differs: most strips are the last build's whole.
    let bars: PublicBar[] | null = comparable ? null : new Array<PublicBar>(n);
    for (let i = 0; i < n; i++) {
      let same = comparable && old.ranks[i] === ranks[i];
      for (let f = i * width; same && f < (i + 1) * width; f++) if (old!.values[f] !== values[f]) same = false;
      // Inputs that moved may still make the same bar (the open span of today adds up time to a
      // bar already at 100 %): the old one is kept then, so its strip stays the same array.
      const made = same ? null : make(periods[i], tallies.at(i), BAR_STATES[ranks[i]]);
      if (made === null || (comparable && sameBar(old.bars[i], made))) {
        if (bars) bars[i] = old!.bars[i];
        continue;
      }
      bars ??= old!.bars.slice(0, i);
      bars[i] = made;
    }
    const out = bars ?? old!.bars;
    // The build's own arrays, never changed after it (public-model.ts makes them anew each build).
    this.next.set(name, { bars: out, ranks, values });
    return out;
  }

  done(): void {
    this.keep(this.next);
  }
}

/** Bars hold numbers, strings and null only. */
function sameBar(a: PublicBar, b: PublicBar): boolean {
  for (const k in b) if (a[k as keyof PublicBar] !== b[k as keyof PublicBar]) return false;
  return true;
}

const barJsonOf = new WeakMap<PublicBar, string>();
const stripJsonOf = new WeakMap<PublicBar[], Buffer>();

/** `JSON.stringify(bars)` as UTF-8, from the kept text of each bar and of the strip. */
export function barsJson(bars: PublicBar[]): Buffer {
  let kept = stripJsonOf.get(bars);
  if (kept !== undefined) return kept;
  const parts = new Array<string>(bars.length);
  for (let i = 0; i < bars.length; i++) {
    let one = barJsonOf.get(bars[i]);
    if (one === undefined) barJsonOf.set(bars[i], (one = JSON.stringify(bars[i])));
    parts[i] = one;
  }
  kept = Buffer.from(`[${parts.join(',')}]`, 'utf8');
  stripJsonOf.set(bars, kept);
  return kept;
}

const barHtmlOf = new WeakMap<PublicBar, Map<string, string>>();
const stripHtmlOf = new WeakMap<PublicBar[], Map<string, string>>();

/**
 * The markup of a strip made with `one` (a bar's markup in a style named by `style`), from the
 * kept markup of each bar and of the strip.
 */
export function stripHtml(bars: PublicBar[], style: string, one: (b: PublicBar) => string): string {
  let byStyle = stripHtmlOf.get(bars);
  const kept = byStyle?.get(style);
  if (kept !== undefined) return kept;
  let html = '';
  for (const b of bars) {
    let mine = barHtmlOf.get(b);
    if (!mine) barHtmlOf.set(b, (mine = new Map()));
    let text = mine.get(style);
    if (text === undefined) mine.set(style, (text = one(b)));
    html += text;
  }
  if (!byStyle) stripHtmlOf.set(bars, (byStyle = new Map()));
  byStyle.set(style, html);
  return html;
}

const stripBytesOf = new WeakMap<PublicBar[], { html: string; bytes: Buffer }>();

/**
 * A strip's markup (`html`, as stripHtml made it) as UTF-8, kept beside the strip while its
 * markup stays the same: a page's answer is written from these bytes (home-html.ts), not encoded
 * anew from one large string.
 */
export function stripBytes(bars: PublicBar[], html: string): Buffer {
  const kept = stripBytesOf.get(bars);
  if (kept !== undefined && kept.html === html) return kept.bytes;
  const bytes = Buffer.from(html, 'utf8');
  stripBytesOf.set(bars, { html, bytes });
  return bytes;
}

const MARK = '\u0000';
const MARK_JSON = JSON.stringify(MARK);

/**
 * An answer as the pieces it is sent in: kept bytes as they are, and the text between them encoded
 * together, once. Nothing is joined: Packed sends the pieces (compression.ts).
 */
class Pieces {
  private pending = '';
  private readonly out: Buffer[] = [];

  text(s: string): void {
    this.pending += s;
  }

  bytes(b: Buffer): void {
    this.flush();
    this.out.push(b);
  }

  done(): Buffer[] {
    this.flush();
    return this.out;
  }

  private flush(): void {
    if (this.pending === '') return;
    this.out.push(Buffer.from(this.pending, 'utf8'));
    this.pending = '';
  }
}

/**
 * `JSON.stringify(value)` written to `out`, with the fields named in `raw` written by their own
 * function, in their place: each such field is given a marker first, whose written form
 * (`"bars":"\u0000"`) no string can contain, since inside a JSON string every `"` is escaped, and
 * the text is cut around the markers.
 */
function writeWithRaw(out: Pieces, value: object, raw: Record<string, () => void>): void {
  const marked: Record<string, unknown> = { ...value };
  for (const k of Object.keys(raw)) marked[k] = MARK;
  const text = JSON.stringify(marked);
  const at = Object.entries(raw).map(([k, write]) => {
    const key = `${JSON.stringify(k)}:`;
    const i = text.indexOf(key + MARK_JSON);
    if (i < 0) throw new Error(`writeWithRaw: no ${k}`);
    return { from: i + key.length, write };
  });
  let done = 0;
  for (const { from, write } of at.sort((a, b) => a.from - b.from)) {
    out.text(text.slice(done, from));
    write();
    done = from + MARK_JSON.length;
  }
  out.text(text.slice(done));
}

function writeList<T>(out: Pieces, items: readonly T[], write: (item: T) => void): void {
  out.text('[');
  items.forEach((item, i) => {
    if (i > 0) out.text(',');
    write(item);
  });
  out.text(']');
}

/** `JSON.stringify(model)` as UTF-8 pieces, every strip written from its kept bytes. */
export function publicStatusJson(model: PublicStatus): Buffer[] {
  const out = new Pieces();
  writeWithRaw(out, model, {
    groups: () =>
      writeList(out, model.groups, (g) =>
        writeWithRaw(out, g, {
          bars: () => out.bytes(barsJson(g.bars)),
          services: () =>
            writeList(out, g.services, (s) => writeWithRaw(out, s, { bars: () => out.bytes(barsJson(s.bars)) })),
        }),
      ),
  });
  return out.done();
}
