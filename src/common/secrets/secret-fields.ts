/**
 * Secret fields, declared once per schema (monitor settings, channel configs, exports), and the
 * three things done with them: masking a copy for answers, keeping stored values where
 * ******** is sent back, and listing the real values so logs and exports can scrub them.
 *
 * The keep-rule (spec, "Secret handling rules" 2) lives in `keepSecrets`: ******** keeps the
 * stored value only while the caller says the destination is the same, so a key that may edit a
 * target cannot redirect stored credentials to a server of its choosing.
 */
import type { FieldError } from '../http/api-error';
import { isMask, MASK } from './secrets';

type Plain = Record<string, unknown>;

export interface SecretField {
  /** Dotted path of a secret value; `[*]` stands for each element of an array: `auth.password`, `headers[*].value`. */
  path: string;
  /** Whether the object holding the value holds a secret there (a header marked secret); default: always. */
  when?: (holder: Plain) => boolean;
  /**
   * Pairs an element under `[*]` with its stored counterpart: secrets under elements with equal
   * keys are paired in order. Default: the element's position in its array.
   */
  key?: (element: Plain) => string;
}

export type SecretSchema = readonly SecretField[];

/** Where the destination of a secret decides whether ******** may keep the stored value. */
export interface KeepRule<T> {
  sameDestination(next: T, prev: T): boolean;
  /** Said on each field that must be sent again because the destination changed. */
  changedMessage: string;
}

export const NOTHING_STORED = 'there is no stored value to keep; send the secret itself';

/** A deep copy fit for answers: every secret that is set (not null) is replaced by ********. */
export function maskSecrets<T>(value: T, schema: SecretSchema): T {
  const copy = structuredClone(value);
  for (const slot of slotsIn(copy, schema)) {
    if (slot.holder[slot.prop] !== null) slot.holder[slot.prop] = MASK;
  }
  return copy;
}

/**
 * Replaces each ******** in `next` by the paired stored value of `prev` when the rule allows it
 * and there is one; returns a field error (at `prefix` + the dotted path) for each ******** that
 * cannot be kept. Mutates `next`: it is the caller's freshly parsed input.
 */
export function keepSecrets<T>(
  next: T,
  prev: T | null,
  schema: SecretSchema,
  rule: KeepRule<T>,
  prefix = '',
): FieldError[] {
  const same = prev !== null && rule.sameDestination(next, prev);
  const stored = new Map<string, unknown>();
  if (prev !== null) for (const s of slotsIn(prev, schema)) stored.set(s.identity, s.holder[s.prop]);
  const errors: FieldError[] = [];
  for (const slot of slotsIn(next, schema)) {
    if (!isMask(slot.holder[slot.prop])) continue;
    const old = stored.get(slot.identity);
    if (same && typeof old === 'string' && !isMask(old)) {
      slot.holder[slot.prop] = old;
      continue;
    }
    const message = prev !== null && !same ? rule.changedMessage : NOTHING_STORED;
    errors.push({ field: joinPath(prefix, slot.path), message });
  }
  return errors;
}

/**
 * A deep copy with every secret string passed through fn (sealing before storage, opening after
 * reading); null and non-string values are left as they are.
 */
export function mapSecrets<T>(value: T, schema: SecretSchema, fn: (secret: string) => string): T {
  // Every stored monitor is read through here: copy only when there is something to map.
  if (!slotsIn(value, schema).some((slot) => typeof slot.holder[slot.prop] === 'string')) return value;
  const copy = structuredClone(value);
  for (const slot of slotsIn(copy, schema)) {
    const v = slot.holder[slot.prop];
    if (typeof v === 'string') slot.holder[slot.prop] = fn(v);
  }
  return copy;
}

/** The real secret values in `value` (set, not empty, not ********), each once, in schema order. */
export function secretValues(value: unknown, schema: SecretSchema): string[] {
  const found = new Set<string>();
  for (const slot of slotsIn(value, schema)) {
    const v = slot.holder[slot.prop];
    if (typeof v === 'string' && v !== '' && !isMask(v)) found.add(v);
  }
  return [...found];
}

interface Slot {
  /** The concrete dotted path, e.g. `headers[2].value`. */
  path: string;
  holder: Plain;
  prop: string;
  /** The field, the element keys on the way and the rank among slots with those keys. */
  identity: string;
}

/** Every place in `root` that holds a secret by the schema, in schema order, then document order. */
function slotsIn(root: unknown, schema: SecretSchema): Slot[] {
  const out: Slot[] = [];
  schema.forEach((field, f) => {
    const steps = field.path
      .replace(/\[\*\]/g, '.*')
      .split('.')
      .filter(Boolean);
    const ranks = new Map<string, number>();
    const walk = (node: unknown, i: number, path: string, keys: string): void => {
      const step = steps[i];
      if (step === '*') {
        if (!Array.isArray(node)) return;
        node.forEach((el, n) => {
          const key = field.key && isPlain(el) ? field.key(el) : String(n);
          walk(el, i + 1, `${path}[${n}]`, `${keys}[${JSON.stringify(key)}]`);
        });
        return;
      }
      // Own properties only: input is parsed JSON, and `constructor` must never count as a field.
      if (!isPlain(node) || !Object.hasOwn(node, step)) return;
      const here = path ? `${path}.${step}` : step;
      if (i < steps.length - 1) return walk(node[step], i + 1, here, keys);
      if (node[step] === undefined || (field.when && !field.when(node))) return;
      const rank = ranks.get(keys) ?? 0;
      ranks.set(keys, rank + 1);
      out.push({ path: here, holder: node, prop: step, identity: `${f}${keys}#${rank}` });
    };
    if (steps.length) walk(root, 0, '', '');
  });
  return out;
}

function joinPath(prefix: string, path: string): string {
  if (!prefix) return path;
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}

function isPlain(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
