/**
 * Handlebars views, found through the resource helper (so they work inside the single binary),
 * compiled once and cached. Helpers and partials are registered here and nowhere else: every file
 * under views/partials/ is a partial named by its path below that folder without `.hbs`
 * (`views/partials/page-head.hbs` is `{{> page-head}}`).
 */
import type Handlebars from 'handlebars';
import { listResources, readResource } from './resources';

const PARTIALS = 'views/partials/';

const cache = new Map<string, Handlebars.TemplateDelegate>();
let instance: typeof Handlebars | null = null;

/**
 * Handlebars with the helper and every partial, loaded at the first render: loading it costs
 * 10 ms that a start does not need.
 */
function handlebars(): typeof Handlebars {
  if (!instance) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
    const loaded = require('handlebars') as typeof Handlebars;
    const hbs = loaded.create();
    hbs.registerHelper(
      'json',
      (value: unknown) =>
        new loaded.SafeString(
          // Inside <script type="application/json"> the only dangerous sequence is "</": escape it.
          JSON.stringify(value).replace(/</g, '\\u003c'),
        ),
    );
    for (const name of partialNames())
      hbs.registerPartial(name, readResource(`${PARTIALS}${name}.hbs`).toString('utf8'));
    instance = hbs;
  }
  return instance;
}

/** The partials every view may use, by name. */
export function partialNames(): string[] {
  return listResources(PARTIALS)
    .filter((k) => k.endsWith('.hbs'))
    .map((k) => k.slice(PARTIALS.length, -'.hbs'.length));
}

/** Renders `views/<name>.hbs` inside `views/<layout>.hbs` (as {{{body}}}) when a layout is given. */
export function render(name: string, model: Record<string, unknown>, layout?: string): string {
  const body = template(name)(model);
  return layout ? template(layout)({ ...model, body }) : body;
}

/**
 * Renders a plain-text view (an email's text part): no HTML escaping, so "AT&T" stays "AT&T".
 * Never for HTML: a text view's output must only ever be sent as text/plain.
 */
export function renderText(name: string, model: Record<string, unknown>): string {
  return template(name, true)(model);
}

function template(name: string, text = false): Handlebars.TemplateDelegate {
  const key = text ? `text:${name}` : name;
  let t = cache.get(key);
  if (!t) {
    t = handlebars().compile(readResource(`views/${name}.hbs`).toString('utf8'), { strict: false, noEscape: text });
    cache.set(key, t);
  }
  return t;
}
