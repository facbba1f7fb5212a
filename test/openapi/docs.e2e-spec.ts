/**
 * The served documentation and /llms.txt: public, every docs/*.md served and listed, no dead link
 * or anchor, nothing but the one stylesheet on the pages (no script, no inline style), the
 * interface contract an unchanged copy, every "not shown" of the contract answered, and llms.txt
 * following the llms.txt convention with routes and links that exist.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startApp, TestApp } from '../support/app';
import { specRoutes } from './spec-routes';

const DOCS = path.resolve(__dirname, '../../docs');
/**
 * SHA-256 of the team's interface specification that docs/interface.md copies. When the
 * specification changes: copy it again below the note, and put its new SHA-256 here.
 */
const SPEC_SHA256 = '8a5a55c49693fae36ccb0072ab50b96d0c87a715ec4996fd1742f00acb891db2';
const pageIds = fs
  .readdirSync(DOCS)
  .filter((f) => f.endsWith('.md'))
  .map((f) => f.slice(0, -3))
  .sort();

describe('the served documentation', () => {
  let t: TestApp;
  const pages = new Map<string, string>();

  beforeAll(async () => {
    t = await startApp();
    for (const id of pageIds) {
      const res = await t.http.get(`/docs/${id}`);
      expect([id, res.status]).toEqual([id, 200]);
      pages.set(id, res.text);
    }
  });
  afterAll(() => t.close());

  it('answers /docs without sign-in, as HTML under a strict content security policy', async () => {
    const res = await t.http.get('/docs').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
    expect(res.text).toContain('<h1>Farsight documentation</h1>');
  });

  it('serves every docs/*.md as /docs/<page> with its own title, and lists each on the index and in the menu', async () => {
    const index = (await t.http.get('/docs').expect(200)).text;
    for (const id of pageIds) {
      const html = pages.get(id)!;
      const title = /<title>(.+) · Farsight docs<\/title>/.exec(html)?.[1];
      expect([id, title, html.match(/<h1 id="[^"]+">/g)?.length]).toEqual([id, expect.any(String), 1]);
      expect([id, index]).toEqual([id, expect.stringContaining(`href="/docs/${id}"`)]);
      expect([id, html]).toEqual([id, expect.stringContaining(`href="/docs/${id}" aria-current="page"`)]);
    }
  });

  it('carries one stylesheet and nothing else: no script, no inline style, no raw HTML from the Markdown', async () => {
    for (const [id, html] of [...pages, ['index', (await t.http.get('/docs').expect(200)).text] as const]) {
      expect([id, html.match(/<script|<style|\sstyle=|<iframe|<object|<embed|\son[a-z]+=/gi)]).toEqual([id, null]);
      // Pictures only from docs/images/, each with its words.
      for (const img of html.match(/<img [^>]*>/g) ?? [])
        expect([id, img]).toEqual([id, expect.stringMatching(/^<img src="\/docs\/images\/[^"]+" alt="[^"]+"/)]);
      const sheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
      expect([id, sheets]).toEqual([id, [expect.stringMatching(/^\/docs\.css\?v=[0-9a-f]{12}$/)]]);
    }
  });

  it('has no dead link or anchor between its pages', async () => {
    const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const dead: string[] = [];
    for (const [id, html] of pages) {
      for (const [, href] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
        const to = href.replace(/&amp;/g, '&');
        if (/^(https?:|mailto:)/.test(to)) continue;
        const [where, anchor] = to.split('#');
        const target =
          where === '' ? html : where.startsWith('/docs/') ? pages.get(where.slice('/docs/'.length)) : undefined;
        if (where === '/docs' || where === '/api/openapi.json' || where === '/llms.txt') continue;
        if (where.startsWith('/docs/images/')) continue;
        if (target === undefined) dead.push(`${id}: ${to} (no such page)`);
        else if (anchor !== undefined && !ids(target).has(anchor)) dead.push(`${id}: ${to} (no such anchor)`);
      }
    }
    expect(dead).toEqual([]);
  });

  it('serves every picture the pages show or link, as an image, an SVG sandboxed', async () => {
    const srcs = new Set(
      [...pages.values()].flatMap((html) =>
        [...html.matchAll(/(?:src|href)="(\/docs\/images\/[^"]+)"/g)].map((m) => m[1]),
      ),
    );
    for (const src of srcs) {
      const res = await t.http.get(src);
      expect([src, res.status, res.headers['content-type']]).toEqual([src, 200, expect.stringMatching(/^image\//)]);
      expect([src, res.headers['content-security-policy']]).toEqual([src, expect.stringContaining('sandbox')]);
    }
    for (const bad of ['/docs/images/nope.png', '/docs/images/..%2F..%2Fpackage.json', '/docs/images/interface.md'])
      await t.http.get(bad).expect(404);
  });

  it('answers an unknown page 404 in HTML, and refuses names that are not page names', async () => {
    for (const url of ['/docs/nope', '/docs/..%2fpackage.json', '/docs/API', '/docs/interface.md']) {
      const res = await t.http.get(url).expect(404);
      expect([url, res.headers['content-type'], res.text]).toEqual([
        url,
        'text/html; charset=utf-8',
        expect.stringContaining('No such page'),
      ]);
    }
  });

  it('serves the stylesheet, cached for a year only under its current version', async () => {
    const html = pages.get('api')!;
    const href = /href="(\/docs\.css\?v=[0-9a-f]+)"/.exec(html)![1];
    const res = await t.http.get(href).expect(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.text).toBe(fs.readFileSync(path.resolve(__dirname, '../../public/docs/docs.css'), 'utf8'));
    expect((await t.http.get('/docs.css?v=old').expect(200)).headers['cache-control']).toBe('no-cache');
  });

  it('serves the interface contract as an unchanged copy of the specification', () => {
    // The H1, a blank line, the note (a blockquote), then the specification from its second line.
    const lines = fs.readFileSync(path.join(DOCS, 'interface.md'), 'utf8').split('\n');
    let end = 2;
    while (lines[end].startsWith('>')) end++;
    const original = [lines[0], ...lines.slice(end)].join('\n');
    expect(createHash('sha256').update(original).digest('hex')).toBe(SPEC_SHA256);
    expect(pages.get('interface')).toContain('This page is a copy');
  });

  it('answers every "not shown" of the contract on the not-shown page', () => {
    const spec = fs.readFileSync(path.join(DOCS, 'interface.md'), 'utf8');
    // Sentences, and table rows whole.
    const places = spec
      .split('\n')
      .flatMap((line) => (line.startsWith('|') ? [line] : line.split(/(?<=\.)\s+/)))
      .filter((s) => /not shown/.test(s) && !/the words "not shown" mark the place|Where it says "not shown"/.test(s));
    const table = fs.readFileSync(path.join(DOCS, 'not-shown.md'), 'utf8');
    const rows = [...table.matchAll(/^\| ([^|]+?) \|/gm)]
      .map((m) => m[1])
      .filter((r) => r !== "The specification's words" && !/^-+$/.test(r));
    const norm = (s: string) => s.toLowerCase().replace(/[`*]/g, '');
    const unanswered = places.filter((p) => !rows.some((r) => norm(p).includes(norm(r))));
    const unused = rows.filter((r) => !places.some((p) => norm(p).includes(norm(r))));
    expect(unused).toEqual([]);
    expect(places.length).toBeGreaterThan(25);
    expect(unanswered).toEqual([]);
  });
});

describe('GET /llms.txt', () => {
  let t: TestApp;
  let text: string;
  let doc: { paths: Record<string, Record<string, unknown>> };

  beforeAll(async () => {
    t = await startApp();
    const res = await t.http.get('/llms.txt').expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    text = res.text;
    doc = (await t.http.get('/api/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('follows the llms.txt convention: an H1 name, a blockquote summary, then sections of links', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Farsight');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> Farsight is a self-hosted uptime monitor\..{80,}/);
    const sections = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
    expect(sections).toEqual(['Contract', 'Main routes', 'Docs', 'Optional']);
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    const body = text.slice(text.indexOf('\n## Contract'));
    for (const line of body.split('\n').filter((l) => l !== '' && !l.startsWith('## '))) expect(line).toMatch(/^- /);
  });

  it('says how to authenticate and where the full contract is', () => {
    expect(text).toContain('Authorization: Bearer fs_<48 hex>');
    expect(text).toContain('(http://farsight.test/api/openapi.json)');
    expect(text).toContain('(http://farsight.test/docs/interface)');
  });

  it('links only to things that exist', async () => {
    const links = [...text.matchAll(/\]\((http:\/\/farsight\.test[^)]*)\)/g)].map((m) =>
      m[1].slice('http://farsight.test'.length),
    );
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) expect([link, (await t.http.get(link)).status]).toEqual([link, 200]);
  });

  it('names only routes that are in the route description, with the scope it gives them', () => {
    const named = [...text.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE)(?:`\/`(?:GET|POST))?) (\/[^`]*)`/g)].flatMap((m) =>
      m[1].split('`/`').map((method) => ({ method: method.toLowerCase(), path: m[2] })),
    );
    expect(named.length).toBeGreaterThan(20);
    const unknown = named.filter((r) => !doc.paths[r.path]?.[r.method]).map((r) => `${r.method} ${r.path}`);
    expect(unknown).toEqual([]);
    // Each route takes the first scope written after it on its line: `GET /a`, `GET /b` (read).
    // `(session` marks a route only the owner's signed-in session may call (x-scope session).
    const scoped: string[] = [];
    for (const line of text.split('\n').filter((l) => l.startsWith('- `'))) {
      for (const m of line.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`]*)`/g)) {
        const scope = /\((read|write|admin|public|session)[),:]/.exec(line.slice(m.index))?.[1];
        const op = doc.paths[m[2]][m[1].toLowerCase()] as { 'x-scope': string };
        expect([m[1], m[2], op['x-scope']]).toEqual([m[1], m[2], scope]);
        scoped.push(m[2]);
      }
    }
    expect(scoped.length).toBeGreaterThan(20);
  });

  it('mentions only routes of the specification and of its extensions', () => {
    const spec = new Set(specRoutes(fs.readFileSync(path.join(DOCS, 'interface.md'), 'utf8')).map((r) => r.path));
    // The extensions' routes are not in docs/interface.md (extensions.md is the team's, outside this
    // repository): the route description marks them ("Not in the specification's tables: ...", x-extra).
    const extension = (p: string) =>
      Object.values(doc.paths[p] ?? {}).some((op) => (op as { 'x-extra'?: boolean })['x-extra'] === true);
    const paths = [...text.matchAll(/`(?:GET|POST|PUT|PATCH|DELETE)[^ ]* (\/[^`]*)`/g)].map((m) => m[1]);
    expect(paths.filter((p) => !spec.has(p) && !extension(p))).toEqual([]);
  });
});
