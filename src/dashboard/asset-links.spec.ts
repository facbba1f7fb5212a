import { importsOf, linkFiles, relativeImport, resolveImport, withShared } from './asset-links';

const hash = (d: Buffer) => `h${d.length}`;
const files = (o: Record<string, string>) => new Map(Object.entries(o).map(([k, v]) => [k, Buffer.from(v)]));

describe('importsOf', () => {
  it.each([
    ["import { a } from './api.js';", ['api.js']],
    ["import './shell.js';", ['shell.js']],
    ["const m = await import('./chart.js');", ['chart.js']],
    ["import { say } from '../shared/page.js';", ['page.js']],
    ["import x from '/auth/assets/common.js';", []],
    ["import x from '../up.js';", []],
    ["import x from '../auth/common.js';", []],
    ["const s = 'from ./not-an-import.js';", []],
    ["import { a } from './api/request.js';", ['api/request.js']],
  ])('%s imports %j', (text, deps) => {
    expect(importsOf(text, 'overview.js')).toEqual(deps);
  });

  it.each([
    ['pages/overview.js', '../api/request.js', 'api/request.js'],
    ['pages/overview.js', './overview-list.js', 'pages/overview-list.js'],
    ['pages/overview.js', '../../shared/page.js', 'page.js'],
    ['pages/overview.js', '../shared/page.js', 'shared/page.js'],
    ['api/request.js', '../format.js', 'format.js'],
    ['overview.js', '../shared/page.js', 'page.js'],
    ['overview.js', './a/../b.js', 'b.js'],
    ['overview.js', '../../etc/passwd.js', null],
  ])('from %s, %s names %j', (from, spec, name) => {
    expect(resolveImport(from, spec)).toBe(name);
  });

  it.each([
    ['pages/overview.js', 'api/request.js', '../api/request.js'],
    ['pages/overview.js', 'pages/list.js', './list.js'],
    ['pages/overview.js', 'page.js', '../page.js'],
    ['overview.js', 'api/request.js', './api/request.js'],
    ['overview.js', 'page.js', './page.js'],
  ])('from %s, %s is imported as %s', (from, to, spec) => {
    expect(relativeImport(from, to)).toBe(spec);
  });
});

describe('linkFiles', () => {
  it('names each import with the hash of the imported file, leaves other files as they are', () => {
    const out = linkFiles(
      files({ 'api.js': 'export const a = 1;', 'page.js': "import { a } from './api.js';", 'app.css': 'a{}' }),
      hash,
    );
    expect(out.get('api.js')!.data.toString()).toBe('export const a = 1;');
    expect(out.get('page.js')!.data.toString()).toBe("import { a } from './api.js?v=h19';");
    expect(out.get('app.css')!.v).toBe('h3');
  });

  it('names a shared module as a neighbour, by its hash', () => {
    const out = linkFiles(
      files({ 'page.js': 'export const say = 1;', 'api.js': "import { say } from '../shared/page.js';" }),
      hash,
    );
    expect(out.get('api.js')!.data.toString()).toBe("import { say } from './page.js?v=h21';");
  });

  it('changes the hash of every module that imports a changed one, through the chain', () => {
    const before = linkFiles(
      files({ 'a.js': '1', 'b.js': "import './a.js';", 'c.js': "import './b.js';", 'd.js': 'x' }),
      (d) => d.toString(),
    );
    const after = linkFiles(
      files({ 'a.js': '2', 'b.js': "import './a.js';", 'c.js': "import './b.js';", 'd.js': 'x' }),
      (d) => d.toString(),
    );
    expect(after.get('c.js')!.v).not.toBe(before.get('c.js')!.v);
    expect(after.get('d.js')!.v).toBe(before.get('d.js')!.v);
  });

  it('links modules a folder down, to each other, to the top and to a shared module', () => {
    const out = linkFiles(
      files({
        'page.js': 'export const say = 1;',
        'api/request.js': "import { say } from '../../shared/page.js';",
        'pages/home.js': "import './../api/request.js'; import('./part.js');",
        'pages/part.js': 'p',
      }),
      hash,
    );
    expect(out.get('api/request.js')!.data.toString()).toBe("import { say } from '../page.js?v=h21';");
    expect(out.get('pages/home.js')!.data.toString()).toBe(
      `import '../api/request.js?v=${out.get('api/request.js')!.v}'; import('./part.js?v=h1');`,
    );
  });

  it('refuses an import of a missing file and an import cycle', () => {
    expect(() => linkFiles(files({ 'a.js': "import './gone.js';" }), hash)).toThrow(
      'imports gone.js, which is missing',
    );
    expect(() => linkFiles(files({ 'a.js': "import './b.js';", 'b.js': "import './a.js';" }), hash)).toThrow('cycle');
  });
});

describe('withShared', () => {
  it("puts the shared files beside the page folder's, and refuses a name that is in both", () => {
    expect([...withShared(files({ 'api.js': 'a' }), files({ 'page.js': 'p' })).keys()]).toEqual(['api.js', 'page.js']);
    expect(() => withShared(files({ 'page.js': 'a' }), files({ 'page.js': 'p' }))).toThrow(
      'page.js is both a page file and a shared one',
    );
  });
});
