/**
 * Handlebars views, found through the resource helper (so they work inside the single binary),
 * compiled once and cached. Helpers are registered here and nowhere else.
 */
import Handlebars from 'handlebars';
import { readResource } from './resources';

const hbs = Handlebars.create();
const cache = new Map<string, Handlebars.TemplateDelegate>();

hbs.registerHelper('json', (value: unknown) => new Handlebars.SafeString(
  // Inside <script type="application/json"> the only dangerous sequence is "</": escape it.
  JSON.stringify(value).replace(/</g, '\\u003c'),
));

/** Renders `views/<name>.hbs` inside `views/<layout>.hbs` (as {{{body}}}) when a layout is given. */
export function render(name: string, model: Record<string, unknown>, layout?: string): string {
  const body = template(name)(model);
  return layout ? template(layout)({ ...model, body }) : body;
}

function template(name: string): Handlebars.TemplateDelegate {
  let t = cache.get(name);
  if (!t) {
    t = hbs.compile(readResource(`views/${name}.hbs`).toString('utf8'), { strict: false });
    cache.set(name, t);
  }
  return t;
}
