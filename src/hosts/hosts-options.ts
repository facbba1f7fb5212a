/** The timings of custom hosts: production values, shortened by tests (AppDeps.hosts). */
export interface HostsOptions {
  /** Each request to the ACME server. */
  acmeTimeoutMs: number;
  /** Polling an authorization or an order until it is valid: first wait, longest wait, tries. */
  pollMinMs: number;
  pollMaxMs: number;
  pollAttempts: number;
  /** Each DNS query. */
  dnsTimeoutMs: number;
  /** The pre-check and the reach probe, each request. */
  probeTimeoutMs: number;
  /** Where CAs fetch HTTP-01 challenges: always 80 outside tests. */
  challengePort: number;
}

export const HOSTS_OPTIONS = Symbol('HostsOptions');

export function hostsOptions(o: Partial<HostsOptions> = {}): HostsOptions {
  return {
    acmeTimeoutMs: 15_000,
    pollMinMs: 1_000,
    pollMaxMs: 10_000,
    pollAttempts: 10,
    dnsTimeoutMs: 3_000,
    probeTimeoutMs: 5_000,
    challengePort: 80,
    ...o,
  };
}

/** Timers of the background loop: real ones, or manual ones in tests (which call tick()). */
export interface HostsTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const HOSTS_TIMERS = Symbol('HostsTimers');
