/**
 * The harness's argument parser: `<scenario> --name value --flag`. Kept tiny and strict: an
 * unknown option is an error, so a typo never runs a ten-minute benchmark with the defaults.
 */
export class ArgError extends Error {}

export interface ParsedArgs {
  scenario: string | null;
  options: Map<string, string | true>;
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options = new Map<string, string | true>();
  let scenario: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) {
        options.set(arg.slice(2, eq), arg.slice(eq + 1));
      } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
        options.set(arg.slice(2), argv[++i]);
      } else {
        options.set(arg.slice(2), true);
      }
    } else if (scenario === null) {
      scenario = arg;
    } else {
      throw new ArgError(`unexpected argument "${arg}"`);
    }
  }
  return { scenario, options };
}

/** Typed access to options. */
export class Options {
  constructor(private readonly raw: Map<string, string | true>) {}

  names(): string[] {
    return [...this.raw.keys()];
  }

  number(name: string, fallback: number): number {
    const v = this.raw.get(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (v === true || !Number.isFinite(n) || n < 0) throw new ArgError(`--${name} needs a non-negative number`);
    return n;
  }

  string(name: string, fallback: string): string {
    const v = this.raw.get(name);
    if (v === undefined) return fallback;
    if (v === true) throw new ArgError(`--${name} needs a value`);
    return v;
  }

  flag(name: string): boolean {
    const v = this.raw.get(name);
    if (v === undefined) return false;
    if (v === true || v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    throw new ArgError(`--${name} is a flag (no value or true/false)`);
  }

  has(name: string): boolean {
    return this.raw.has(name);
  }

  /** The options named in `keep` as command-line arguments again (`--name=value`, `--flag`). */
  toArgs(keep: readonly string[]): string[] {
    return [...this.raw].filter(([k]) => keep.includes(k)).map(([k, v]) => (v === true ? `--${k}` : `--${k}=${v}`));
  }

  /** The same options with some set (when not given on the command line). */
  withDefaults(defaults: Record<string, string>): Options {
    const raw = new Map(this.raw);
    for (const [k, v] of Object.entries(defaults)) if (!raw.has(k)) raw.set(k, v);
    return new Options(raw);
  }
}
