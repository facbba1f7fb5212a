/**
 * A small seeded generator of hostile request parts (fast-check is not installed and no package
 * may be added): values drawn from the schema of /api/openapi.json, right or wrong in type,
 * boundary numbers, huge strings, unicode and NUL, deep nesting, prototype keys.
 */
import type { Random } from '../../faults/support/random';

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  required?: string[];
};

const STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202etxt.exe',
  '𝕏 ünïcödé ☃ 🏳️‍🌈',
  '\ud800',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  "'; DROP TABLE monitors; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '{{constructor.constructor("return process")()}}',
  '${process.env}',
  '__proto__',
  'constructor',
  'prototype',
  'NaN',
  '-1',
  '1e309',
  '9007199254740993',
  'http://127.0.0.1:1/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'slug:',
  'slug:../../x',
  '********',
  'null',
  'true',
  '\r\nX-Injected: 1',
];

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  9,
  10,
  11,
  59,
  60,
  499,
  500,
  501,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
  5e-324,
];

/** Percent-encodes text byte by byte (lone surrogates become U+FFFD, as UTF-8 does). */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

export class Hostile {
  constructor(
    private readonly r: Random,
    private readonly schemas: Record<string, Schema>,
    /** Path values that name something that exists (ids, `slug:<slug>`), so requests get past the lookup. */
    private readonly plausible: readonly string[] = [],
  ) {}

  string(): string {
    const pick = this.r.int(0, 9);
    if (pick === 0) return 'x'.repeat(this.r.pick([101, 501, 4097, 70_000]));
    if (pick === 1) return '\u0000'.repeat(this.r.int(1, 50));
    if (pick === 2) return String.fromCharCode(...Array.from({ length: 20 }, () => this.r.int(0, 0xffff)));
    return this.r.pick(STRINGS);
  }

  number(s?: Schema): number {
    const near = [s?.minimum, s?.maximum]
      .filter((x): x is number => typeof x === 'number')
      .flatMap((b) => [b - 1, b, b + 1]);
    return this.r.chance(0.5) && near.length ? this.r.pick(near) : this.r.pick(NUMBERS);
  }

  /** Any JSON value of the wrong kind, nested at most `depth` deep. */
  anything(depth = 2): unknown {
    switch (this.r.int(0, depth > 0 ? 7 : 4)) {
      case 0:
        return null;
      case 1:
        return this.r.chance(0.5);
      case 2:
        return this.number();
      case 3:
      case 4:
        return this.string();
      case 5:
        return Array.from({ length: this.r.int(0, 3) }, () => this.anything(depth - 1));
      case 6:
        return this.prototypeKeys();
      default:
        return Object.fromEntries(
          Array.from({ length: this.r.int(0, 3) }, () => [this.string().slice(0, 40), this.anything(depth - 1)]),
        );
    }
  }

  prototypeKeys(): Record<string, unknown> {
    return JSON.parse(
      '{"__proto__": {"admin": true, "scope": "admin"}, "constructor": {"prototype": {"polluted": 1}}, "toString": 1}',
    ) as Record<string, unknown>;
  }

  /** A value for a schema: mostly right in type (with boundary values), sometimes anything at all. */
  fromSchema(schema: Schema | undefined, depth = 0): unknown {
    const s = this.resolve(schema);
    if (!s || depth > 6 || this.r.chance(0.2)) return this.anything(1);
    const variants = s.oneOf ?? s.anyOf;
    if (variants?.length) return this.fromSchema(this.r.pick(variants), depth + 1);
    if (s.allOf?.length)
      return Object.assign(
        {},
        ...s.allOf.map((x) => this.fromSchema(x, depth + 1)).filter((v) => v && typeof v === 'object'),
      );
    if (s.enum?.length) return this.r.chance(0.8) ? this.r.pick(s.enum) : this.string();
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ['object'];
    const type = this.r.pick(types);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return this.r.chance(0.5);
      case 'integer':
      case 'number':
        return this.number(s);
      case 'string': {
        if (this.r.chance(0.4)) return this.string();
        const len = this.r.pick([
          s.minLength ?? 1,
          s.maxLength ?? 10,
          (s.maxLength ?? 10) + 1,
          Math.max(0, (s.minLength ?? 1) - 1),
        ]);
        return 'a'.repeat(Math.min(len, 100_000));
      }
      case 'array': {
        const n = this.r.pick([0, 1, 2, 21, 501]);
        return Array.from({ length: n }, () => this.fromSchema(s.items, depth + 1));
      }
      default: {
        const out: Record<string, unknown> = {};
        for (const [key, sub] of Object.entries(s.properties ?? {})) {
          if (this.r.chance(0.75)) out[key] = this.fromSchema(sub, depth + 1);
        }
        if (this.r.chance(0.15)) out[this.string().slice(0, 30) || 'unknown_field'] = this.anything(1);
        return out;
      }
    }
  }

  /** A body as text: usually JSON of a schema value, sometimes broken or pathological JSON. */
  bodyText(schema: Schema | undefined): string {
    switch (this.r.int(0, 11)) {
      case 0:
        return '{"name": ';
      case 1:
        return `${'['.repeat(5000)}${']'.repeat(5000)}`;
      case 2:
        return `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;
      case 3:
        return JSON.stringify(this.prototypeKeys());
      case 4:
        return '{"__proto__": {"isAdmin": true}, "name": "x", "kind": "http"}';
      case 5:
        return JSON.stringify(this.anything(3));
      case 6:
        return `"${'x'.repeat(300_000)}"`;
      default:
        return JSON.stringify(this.fromSchema(schema)) ?? 'null';
    }
  }

  /** A path parameter: hostile text or a boundary number, URL-encoded or not. */
  pathParam(): string {
    if (this.plausible.length && this.r.chance(0.35)) return enc(this.r.pick(this.plausible));
    const v = this.r.chance(0.4) ? String(this.r.pick(NUMBERS)) : this.string().slice(0, 300);
    if (v === '') return '%20';
    return this.r.chance(0.8) ? enc(v) : v.replace(/[/?#\s]/g, '_');
  }

  /** A query string over the declared names (and some others): duplicated keys, brackets, hostile values. */
  query(names: string[]): string {
    const parts: string[] = [];
    const all = [...names, 'limit', 'before', '__proto__', 'constructor[prototype][x]'];
    for (let i = this.r.int(0, 4); i > 0; i--) {
      const name = this.r.pick(all);
      const value = this.r.chance(0.5) ? String(this.r.pick(NUMBERS)) : this.string().slice(0, 200);
      const key = this.r.pick([name, name, `${name}[]`, `${name}[a][b]`]);
      parts.push(`${enc(key)}=${enc(value)}`);
      if (this.r.chance(0.3)) parts.push(`${enc(name)}=${enc(String(this.r.pick(NUMBERS)))}`);
    }
    return parts.length ? `?${parts.join('&')}` : '';
  }

  private resolve(s: Schema | undefined): Schema | undefined {
    let cur = s;
    for (let i = 0; cur?.$ref && i < 10; i++) cur = this.schemas[cur.$ref.split('/').pop() as string];
    return cur;
  }
}
