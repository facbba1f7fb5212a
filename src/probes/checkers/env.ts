import type { Clock } from '../../common/clock';

/** What every checker gets besides its settings: no database, no Nest. */
export interface CheckerEnv {
  clock: Clock;
  /**
   * Extra trusted CA certificates (PEM), added to the system roots: for tests and for operators
   * with a private CA. Build the env once and reuse it: the trust store is cached per env object.
   */
  ca?: string | Buffer[];
}
