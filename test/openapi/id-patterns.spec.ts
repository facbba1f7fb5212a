/**
 * The route description publishes the id and slug patterns that validation applies (one pattern
 * each, in common/validation/ids.ts): a client that trusts the document sends no id the service refuses as
 * naming nothing, and the document refuses none the service takes.
 */
import { isIdText } from '../../src/common/validation/ids';
import { openApiJson } from '../../src/openapi/build';

interface Param {
  name: string;
  in: string;
  schema?: { pattern?: string };
}
type Doc = { paths: Record<string, Record<string, { parameters?: Param[] }>> };

const doc = JSON.parse(openApiJson('http://127.0.0.1:1')) as Doc;
const pathParams = (name: string): [string, string][] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      (op.parameters ?? [])
        .filter((p) => p.in === 'path' && p.name === name)
        .map((p): [string, string] => [`${method.toUpperCase()} ${path}`, p.schema?.pattern ?? '(none)']),
    ),
  );

const SLUG_60 = 'a'.repeat(60);
/** Texts and whether they are an id: a positive integer of at most 15 digits (below 2^53). */
const IDS: [string, boolean][] = [
  ['1', true],
  ['42', true],
  ['999999999999999', true],
  ['1000000000000000', false],
  ['9999999999999999', false],
  ['0', false],
  ['01', false],
  ['-1', false],
  ['1.5', false],
  ['1e3', false],
  [' 1', false],
  ['abc', false],
  ['', false],
];
/** Texts and whether they are a slug: 1-60 of a-z, 0-9 and - (spec "Monitor fields"). */
const SLUGS: [string, boolean][] = [
  ['nas', true],
  ['nas-1', true],
  ['-', true],
  [SLUG_60, true],
  [`${SLUG_60}a`, false],
  ['', false],
  ['NAS', false],
  ['nas_1', false],
  ['nas.lan', false],
  ['naïve', false],
];
/** A monitor as its routes name it: `<id>` or `slug:<slug>`. */
const MONITOR_REFS: [string, boolean][] = [
  ...IDS,
  ...SLUGS.map(([s, ok]): [string, boolean] => [`slug:${s}`, ok]),
  ['nas', false],
  ['slug:1', true],
];

describe('the published id pattern', () => {
  it.each(IDS)('validation takes %j as an id: %s', (text, ok) => {
    expect(isIdText(text)).toBe(ok);
  });

  const idRoutes = pathParams('id');
  const monitorRoute = (route: string) => route.includes(' /api/v1/monitors/{id}');
  it('is published on every {id} of the API and of the dashboard pages', () => {
    expect(idRoutes.length).toBeGreaterThan(20);
    expect(idRoutes.filter(([, pattern]) => pattern === '(none)')).toEqual([]);
  });

  it.each(idRoutes.filter(([route]) => !monitorRoute(route)))(
    '%s takes exactly the ids validation takes',
    (_route, pattern) => {
      const re = new RegExp(pattern);
      expect(IDS.filter(([text, ok]) => re.test(text) !== ok)).toEqual([]);
    },
  );

  it.each(idRoutes.filter(([route]) => monitorRoute(route)))(
    '%s takes an id or slug:<slug>, as validation does',
    (_route, pattern) => {
      const re = new RegExp(pattern);
      expect(MONITOR_REFS.filter(([text, ok]) => re.test(text) !== ok)).toEqual([]);
    },
  );

  // A badge's {slug} is the service's page name on the status page (/status/{slug}: letters of any
  // script, made from its public name; status/public/page-names.ts), not a monitor's slug.
  const badge = (route: string) => route.includes(' /badge/');
  it.each(pathParams('slug').filter(([route]) => !badge(route)))(
    '%s takes exactly the slugs validation takes',
    (_route, pattern) => {
      const re = new RegExp(pattern);
      expect(SLUGS.filter(([text, ok]) => re.test(text) !== ok)).toEqual([]);
    },
  );
});
