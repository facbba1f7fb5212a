import type { Clock } from '../../common/clock';

/** The Nest token of the one CheckerEnv (also the mail path's extra CA, in tests). */
export const CHECKER_ENV = Symbol('CheckerEnv');

/** What every checker gets besides its settings: no database, no Nest. */
export interface CheckerEnv {
  clock: Clock;
  /**
   * Extra trusted CA certificates (PEM), added to the system roots: for tests and for operators
   * with a private CA. Build the env once and reuse it: the trust store is cached per env object.
   */
  ca?: string | Buffer[];
}
