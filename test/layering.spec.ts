/**
 * The module map of docs/architecture.md, enforced: a module imports only the modules listed
 * below it. A new import against the layering fails here with the file and the import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '..', 'src');

/** Who may import whom (besides itself). Lower layers first; keep docs/architecture.md in step. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  config: [],
  db: ['config'],
  common: ['db', 'config'],
  settings: ['db', 'common', 'config'],
  probes: ['common'],
  events: ['probes', 'db', 'common', 'config'],
  catalog: ['probes', 'db', 'common', 'config'],
  history: ['catalog', 'probes', 'events', 'settings', 'db', 'common', 'config'],
  engine: ['history', 'catalog', 'probes', 'events', 'settings', 'db', 'common', 'config'],
  mail: ['probes', 'settings', 'db', 'common', 'config'],
  auth: ['mail', 'events', 'settings', 'db', 'common', 'config'],
  incidents: ['engine', 'history', 'catalog', 'probes', 'events', 'settings', 'db', 'common', 'config'],
  channels: [
    'incidents',
    'engine',
    'history',
    'catalog',
    'probes',
    'events',
    'settings',
    'mail',
    'auth',
    'db',
    'common',
    'config',
  ],
  maintenance: ['engine', 'history', 'catalog', 'probes', 'events', 'settings', 'auth', 'db', 'common', 'config'],
  stream: ['engine', 'history', 'catalog', 'probes', 'events', 'settings', 'auth', 'db', 'common', 'config'],
  monitors: [
    'channels',
    'engine',
    'history',
    'catalog',
    'probes',
    'events',
    'settings',
    'auth',
    'db',
    'common',
    'config',
  ],
  locations: [
    'monitors',
    'channels',
    'engine',
    'history',
    'catalog',
    'probes',
    'events',
    'settings',
    'auth',
    'db',
    'common',
    'config',
  ],
  hosts: ['probes', 'events', 'db', 'common', 'config'],
  status: [
    'maintenance',
    'hosts',
    'monitors',
    'history',
    'catalog',
    'probes',
    'events',
    'settings',
    'db',
    'common',
    'config',
  ],
  subscribers: [
    'status',
    'maintenance',
    'hosts',
    'monitors',
    'engine',
    'history',
    'catalog',
    'probes',
    'events',
    'settings',
    'mail',
    'auth',
    'db',
    'common',
    'config',
  ],
  system: [
    'subscribers',
    'maintenance',
    'locations',
    'status',
    'hosts',
    'incidents',
    'stream',
    'channels',
    'monitors',
    'engine',
    'history',
    'catalog',
    'probes',
    'events',
    'settings',
    'mail',
    'auth',
    'db',
    'common',
    'config',
  ],
  openapi: [
    'system',
    'subscribers',
    'maintenance',
    'locations',
    'status',
    'hosts',
    'incidents',
    'stream',
    'channels',
    'monitors',
    'engine',
    'history',
    'catalog',
    'probes',
    'events',
    'settings',
    'mail',
    'auth',
    'db',
    'common',
    'config',
  ],
  dashboard: ['status', 'catalog', 'auth', 'events', 'common', 'config'],
  // The probe agent (`farsight agent`): only engine/'s pieces without Nest or a database, which
  // AGENT_ENGINE_FILES below names.
  agent: ['engine', 'probes', 'common', 'config'],
  // The process-level pieces: only the composition (src/*.ts) imports them, so no module lists them.
  runtime: ['common', 'config'],
};

/**
 * No folder of src/ holds more than this many source files directly (specs not counted, as issue 34
 * counted common/'s 40): a fuller folder is split into subfolders by idea (docs/architecture.md).
 */
const FILES_PER_FOLDER = 20;
/** No source file (specs aside) is longer: past it a file is usually two ideas (issue 34; docs/architecture.md). */
const MAX_LINES = 450;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/** `engine` for src/engine/<file>.ts, `app` for src/main.ts and the other composition files at the top. */
function moduleOf(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  return rel.length === 1 ? 'app' : rel[0];
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((s) => path.resolve(path.dirname(file), s)).filter((p) => p.startsWith(SRC + path.sep));
}

describe('module layering', () => {
  const files = sourceFiles(SRC);
  const edges = files.flatMap((file) =>
    importsOf(file).map((target) => ({ file, from: moduleOf(file), to: moduleOf(target) })),
  );

  it('knows every module folder in src/', () => {
    const folders = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  it('has no import against the layering', () => {
    const wrong = edges
      .filter((e) => e.from !== e.to && e.from !== 'app' && !MAY_IMPORT[e.from]?.includes(e.to))
      .map((e) => `${path.relative(SRC, e.file)} -> ${e.to}`);
    expect([...new Set(wrong)].sort()).toEqual([]);
  });

  it('imports runtime/ only from the composition', () => {
    const wrong = edges.filter((e) => e.to === 'runtime' && e.from !== 'runtime' && e.from !== 'app');
    expect(wrong.map((e) => path.relative(SRC, e.file))).toEqual([]);
  });

  // The pages' own files too (public/dashboard/ is pages/, core/, overview/ ... : docs/dashboard.md).
  it.each([
    ['src', SRC],
    ['public', path.join(SRC, '..', 'public')],
  ])(`keeps at most ${FILES_PER_FOLDER} source files directly in any folder of %s/`, (_name, root) => {
    const crowded: string[] = [];
    const visit = (dir: string): void => {
      const entries = fs.readdirSync(dir, { withFileTypes: true });
      const files = entries.filter((e) => e.isFile() && !e.name.endsWith('.spec.ts')).length;
      if (files > FILES_PER_FOLDER) crowded.push(`${path.relative(root, dir) || '.'}: ${files} source files`);
      for (const e of entries) if (e.isDirectory()) visit(path.join(dir, e.name));
    };
    visit(root);
    expect(crowded).toEqual([]);
  });

  it(`keeps every source file at most ${MAX_LINES} lines`, () => {
    const long = files
      .map((f) => ({ file: path.relative(SRC, f), lines: fs.readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it('lists a layering without cycles', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycle = (m: string, trail: string[]): string[] | null => {
      if (done.has(m)) return null;
      if (visiting.has(m)) return [...trail, m];
      visiting.add(m);
      for (const next of MAY_IMPORT[m] ?? []) {
        const found = cycle(next, [...trail, m]);
        if (found) return found;
      }
      visiting.delete(m);
      done.add(m);
      return null;
    };
    for (const m of Object.keys(MAY_IMPORT)) expect(cycle(m, [])).toBeNull();
  });
});

/**
 * Packages that are slow to load and used only now and then: a start of the service does not load
 * them (docs/performance.md "Start-up"). They are imported for their types only, or with import()
 * where they are used; class-validator only through src/common/validation/class-validator.ts, file by file.
 */
const LOADED_WHEN_USED = ['@simplewebauthn/server', 'nodemailer', 'qrcode', 'acme-client'];

describe('packages loaded when used, not at start', () => {
  const files = sourceFiles(SRC);
  const valueImports = (file: string, pkg: string): boolean => {
    const text = fs.readFileSync(file, 'utf8');
    const quoted = pkg.replace(/[/.-]/g, '\\$&');
    // `import x from 'p'`, `import { x } from 'p'`, `export ... from 'p'`, `require('p')`: but not `import type`.
    const statement = new RegExp(
      `^(?:import(?!\\s+type\\b)[^;]*?from|export(?!\\s+type\\b)[^;]*?from|import)\\s*['"]${quoted}['"]`,
      'm',
    );
    return statement.test(text) || new RegExp(`require\\(\\s*['"]${quoted}['"]`).test(text);
  };

  it.each(LOADED_WHEN_USED)('%s is not imported at the top of any module', (pkg) => {
    expect(files.filter((f) => valueImports(f, pkg)).map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('class-validator is imported only by common/validation/class-validator.ts', () => {
    expect(files.filter((f) => valueImports(f, 'class-validator')).map((f) => path.relative(SRC, f))).toEqual([]);
  });
});

/**
 * `farsight agent` runs on a box of its own with no database and no HTTP server: what src/agent/
 * loads (its value imports, followed through every file they reach) stays inside the agent, probes/,
 * common/, config/ and the pieces of engine/ named here, and loads no Nest, TypeORM, SQLite or
 * express. Type-only imports load nothing and are not followed.
 */
const AGENT_ENGINE_FILES = [
  'engine/check-once.ts',
  'engine/scheduling/scheduler.ts',
  'engine/scheduling/due-heap.ts',
  'engine/blind/blind-rule.ts',
  'engine/blind/canaries.ts',
  'engine/blind/canary-set.ts',
  'engine/blind/local-canaries.ts',
];
/** The agent's own entry (the agent's bundle, packaging/bundle.js) and the composition files it reaches. */
const AGENT_ENTRY_FILES = [
  'agent-main.ts',
  'cli-agent.ts',
  'cli-exit.ts',
  'runtime/logger.ts',
  'runtime/process-guards.ts',
  'runtime/stop-signal.ts',
];
const AGENT_FORBIDDEN_PACKAGES = /^(@nestjs\/|typeorm$|sqlite3$|express$|class-validator$|handlebars$)/;

describe('the agent loads no part of the service it does not need', () => {
  const valueSpecifiers = (file: string): string[] => {
    const text = fs.readFileSync(file, 'utf8');
    return [
      ...text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s*['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]/gm),
    ]
      .map((m) => m[1] ?? m[2])
      .filter((s): s is string => s !== undefined);
  };
  const resolveTs = (from: string, spec: string): string | null => {
    const base = path.resolve(path.dirname(from), spec);
    for (const f of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(f)) return f;
    return null;
  };
  const reached = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const spec of valueSpecifiers(file)) {
      if (spec.startsWith('.')) {
        const target = resolveTs(file, spec);
        if (target) visit(target);
      } else if (!spec.startsWith('node:')) packages.set(spec, path.relative(SRC, file));
    }
  };
  for (const f of sourceFiles(path.join(SRC, 'agent'))) visit(f);
  visit(path.join(SRC, 'agent-main.ts'));

  it('reaches only the agent, its entry, probes/, common/, config/ and the named engine/ files', () => {
    const outside = [...reached]
      .map((f) => path.relative(SRC, f))
      .filter(
        (f) =>
          !/^(agent|probes|common|config)\//.test(f) &&
          !AGENT_ENGINE_FILES.includes(f) &&
          !AGENT_ENTRY_FILES.includes(f),
      );
    expect(outside.sort()).toEqual([]);
  });

  it('loads no Nest, TypeORM, SQLite, express, class-validator or Handlebars', () => {
    const wrong = [...packages].filter(([pkg]) => AGENT_FORBIDDEN_PACKAGES.test(pkg)).map(([p, f]) => `${f} -> ${p}`);
    expect(wrong).toEqual([]);
  });
});
