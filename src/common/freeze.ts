/**
 * Deep freezing for values handed out to many readers (service settings): a reader that writes
 * to a shared object would change it for everyone, silently. Frozen, the write throws in strict
 * mode (every module here), and the readonly type stops most such writes at compile time.
 */
export type DeepReadonly<T> = T extends (infer E)[]
  ? ReadonlyArray<DeepReadonly<E>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Freezes `value` and everything reachable from it, in place; returns it. */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  freeze(value, new WeakSet());
  return value as DeepReadonly<T>;
}

function freeze(value: unknown, seen: WeakSet<object>): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  Object.freeze(value);
  // An already frozen object may still hold mutable children, so always walk on.
  for (const child of Object.values(value)) freeze(child, seen);
}
