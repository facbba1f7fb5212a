/** The one mask for secret values in answers, exports and logs. */
export const MASK = '********';

export function mask<T extends string | null | undefined>(value: T): T | typeof MASK {
  return value === null || value === undefined ? value : MASK;
}

export function isMask(value: unknown): boolean {
  return value === MASK;
}
