/**
 * The routes of the specification's "Endpoints" tables (docs/interface.md, the served copy), as
 * `METHOD /full/path` with OpenAPI-style parameters. Paths are relative to /api/v1 unless they
 * start with /api/, /status or /hb/, or sit in the section of absolute paths.
 */
export interface SpecRoute {
  method: string;
  path: string;
}

const ABSOLUTE = /^\/(api\/|status(?=$|[/.?])|hb\/)/;

export function specRoutes(markdown: string): SpecRoute[] {
  const start = markdown.search(/^## Endpoints/m);
  if (start < 0) throw new Error('no "## Endpoints" section');
  const end = markdown.indexOf('\n## ', start + 1);
  const out: SpecRoute[] = [];
  let absoluteSection = false;
  for (const line of markdown.slice(start, end < 0 ? undefined : end).split('\n')) {
    if (line.startsWith('### ')) absoluteSection = /absolute paths/i.test(line);
    const m =
      /^\|\s*((?:GET|POST|PUT|PATCH|DELETE|HEAD)(?:,\s*(?:GET|POST|PUT|PATCH|DELETE|HEAD))*)\s+(\/[^|]*?)\s*\|/.exec(
        line,
      );
    if (!m) continue;
    const methods = m[1].split(/,\s*/);
    for (const raw of m[2].split(/,\s*/)) {
      for (const path of expand(raw, absoluteSection)) for (const method of methods) out.push({ method, path });
    }
  }
  return out;
}

function expand(raw: string, absolute: boolean): string[] {
  const path = raw
    .replace(/\?.*$/, '')
    .replace(/<([a-z_]+)>/g, '{$1}')
    .trim();
  const full = absolute || ABSOLUTE.test(path) ? path : `/api/v1${path}`;
  // `/docs/...`: the index and its pages.
  if (full.endsWith('/...')) return [full.slice(0, -4), `${full.slice(0, -4)}/{page}`];
  return [full];
}
