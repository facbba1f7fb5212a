/**
 * A secret the caller sees in one answer and never again: an API key, a heartbeat ping URL,
 * recovery codes, an authenticator secret. It is wrapped where it is made, so no route has to
 * remember it: it goes over the wire as its plain value (`toJSON`), while the idempotency layer,
 * which sees the answer before it is written, finds it here and keeps no copy of it (a kept answer
 * would sit readable in the database for 24 hours and be handed out again to a repeat).
 */
export class ShownOnce<T extends string | readonly string[] = string> {
  constructor(
    readonly value: T,
    /** How to get a new one, for the refusal of a repeat: "POST /api/v1/... gives a new ...". */
    readonly again: string,
  ) {}

  toJSON(): T {
    return this.value;
  }
}

export function shownOnce<T extends string | readonly string[]>(value: T, again: string): ShownOnce<T> {
  return new ShownOnce(value, again);
}

/** A secret shown once in an answer: where it is (a dotted path) and how to get a new one. */
export interface Withheld {
  path: string;
  again: string;
}

/** Every ShownOnce in an answer, in document order. */
export function shownOnceIn(answer: unknown): Withheld[] {
  const found: Withheld[] = [];
  const walk = (node: unknown, path: string): void => {
    if (node instanceof ShownOnce) {
      found.push({ path, again: node.again });
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else if (typeof node === 'object' && node !== null && !ArrayBuffer.isView(node)) {
      for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
    }
  };
  walk(answer, '');
  return found;
}
