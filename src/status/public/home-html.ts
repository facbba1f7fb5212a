/**
 * The status page's home as a sequence of kept bytes (sent as those pieces: compression.ts, Packed),
 * and the rules that decide what is kept: the one place to read them (docs/performance.md,
 * "Fourteenth round" and "Sixteenth round").
 *
 * The page of 100 services over 90 days is about 290 KB of HTML, nearly all of it the services'
 * rows. Rendered whole by Handlebars it was one string of that size (V8 puts it straight into the
 * old generation, where only a full collection frees it) and then encoded to bytes, after every
 * change of the page's settings and every 30 s.
 *
 * 1. Handlebars renders the page's **shell** only: the home template places each section's rows
 *    with `{{{rows}}}`, given a marker here, and the shell is cut at the markers.
 * 2. A service's **row** is rendered on its own by its layout's row partial
 *    (views/partials/status/row-<layout>.hbs), with a marker in place of its bars' markup, and
 *    kept as the bytes before and after the bars. It is reused while its signature is the same:
 *    the layout and the row's whole view model except its bars' markup (everything the row shows
 *    is in that model: page-view.ts decides every word). Rows are kept per range, those of the
 *    last build only.
 * 3. A strip's **bars** are written from the bytes kept beside the strip (fragments.ts).
 *
 * A preview is rendered whole by Handlebars (the home template falls back to rendering each row
 * through the same partial); home-html.spec.ts holds the two equal to the byte.
 */
import { randomBytes } from 'node:crypto';
import { render } from '../../common/resources/views';
import type { Layout } from '../settings/look';
import { stripBytes } from './fragments';
import type { HomeView, ServiceRowView } from './page-view';
import type { PublicStatus } from './public-model';

/**
 * Escaped text cannot hold `<`, and the only raw markup of a row is its bars' (this marker's
 * place), so a row holds this once. The shell's raw markup is the page's own too (bars, a
 * window's description rendered by markdown.ts, which escapes `<`); the random part makes the
 * rows' marker one no stored text can spell even so, and the count is checked.
 */
const STRIP_MARK = '<\u0000bars>';
const ROWS_MARK = `<\u0000rows ${randomBytes(8).toString('hex')}>`;

export interface KeptRow {
  head: Buffer;
  tail: Buffer;
}

/** The rows of the last build of each range. */
export class RowMemo {
  private readonly byRange = new Map<string, Map<string, KeptRow>>();

  /** One build of `range`: row() for each service, then done() keeps the rows this build wrote. */
  round(range: string): RowRound {
    return new RowRound(this.byRange.get(range) ?? new Map(), (rows) => this.byRange.set(range, rows));
  }
}

export class RowRound {
  private readonly next = new Map<string, KeptRow>();
  /** Rows rendered by this round (the others were reused). */
  rendered = 0;

  constructor(
    private readonly last: ReadonlyMap<string, KeptRow>,
    private readonly keep: (next: Map<string, KeptRow>) => void,
  ) {}

  row(layout: Layout, view: ServiceRowView): KeptRow {
    const signature = `${layout}\n${JSON.stringify({ ...view, strip: { ...view.strip, html: undefined } })}`;
    let kept = this.next.get(signature) ?? this.last.get(signature);
    if (kept === undefined) {
      kept = renderRow(layout, view);
      this.rendered += 1;
    }
    this.next.set(signature, kept);
    return kept;
  }

  done(): void {
    this.keep(this.next);
  }
}

function renderRow(layout: Layout, view: ServiceRowView): KeptRow {
  const text = render(`partials/status/row-${layout}`, { ...view, strip: { ...view.strip, html: STRIP_MARK } });
  const at = text.indexOf(STRIP_MARK);
  if (at < 0 || text.includes(STRIP_MARK, at + 1)) throw new Error(`row-${layout}: the bars are not placed once`);
  return {
    head: Buffer.from(text.slice(0, at), 'utf8'),
    tail: Buffer.from(text.slice(at + STRIP_MARK.length), 'utf8'),
  };
}

/** The whole page as one template renders it (a preview), and the page from kept bytes (the saved page). */
export type HomeModel = HomeView & Record<string, unknown>;

export function renderHomeWhole(layout: Layout, view: HomeModel): string {
  return render(`status/home-${layout}`, view, 'status/layout');
}

/**
 * The page's bytes, as the pieces it is sent in (Packed): `view` is homeView(model) (and what else
 * the shell shows), row by row as model's.
 */
export function homeHtml(model: PublicStatus, view: HomeModel, layout: Layout, rows: RowRound): Buffer[] {
  const shell = render(
    `status/home-${layout}`,
    { ...view, groups: view.groups.map((g) => ({ ...g, rows: ROWS_MARK })) },
    'status/layout',
  );
  const pieces = shell.split(ROWS_MARK);
  if (pieces.length !== view.groups.length + 1)
    throw new Error(`home-${layout}: the rows are not placed once a section`);
  const out: Buffer[] = [];
  view.groups.forEach((g, i) => {
    out.push(Buffer.from(pieces[i], 'utf8'));
    const services = model.groups[i].services;
    g.services.forEach((row, j) => {
      const kept = rows.row(layout, row);
      out.push(kept.head, stripBytes(services[j].bars, row.strip.html), kept.tail);
    });
  });
  out.push(Buffer.from(pieces[pieces.length - 1], 'utf8'));
  return out;
}
