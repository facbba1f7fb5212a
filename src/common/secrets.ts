/** The one mask for secret values in answers, exports and logs. */
export const MASK = '********';

export function isMask(value: unknown): boolean {
  return value === MASK;
}
