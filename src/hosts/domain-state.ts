/**
 * The states of a custom host (spec "Domain state") and the moves between them, decided here and
 * nowhere else. Pure: the service feeds it what it found (a DNS verdict, an order's outcome) and
 * the facts of the moment (a certificate still valid, a renewal due, a back-off wait running);
 * the table answers the next state, whether a certificate order starts, and whether the owner
 * gets a notice. docs/custom-hosts.md draws the same table.
 */

export const DOMAIN_STATES = [
  'checking',
  'dns_missing',
  'dns_elsewhere',
  'proxied',
  'certificate',
  'live',
  'failed',
  'not_managed',
] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/** What the DNS of a host says, as judged by dns-verdict.ts; `unknown`: the lookup itself failed. */
export type DnsVerdict = 'missing' | 'elsewhere' | 'proxied' | 'here' | 'unknown';

export type DomainEvent =
  /** The host was saved (new or added again), or the service started: `https` is FARSIGHT_HTTPS_LISTEN set. */
  | { kind: 'added'; https: boolean }
  | { kind: 'dns'; verdict: DnsVerdict }
  | { kind: 'order_valid' }
  | { kind: 'order_failed' };

export interface DomainFacts {
  /** A certificate for the host is on disk and not expired. */
  certValid: boolean;
  /** Its certificate expires within the renewal window (30 days). */
  renewalDue: boolean;
  /** A back-off wait (failed orders, or the CA's Retry-After) has not run out. */
  waiting: boolean;
}

export type OrderKind = 'none' | 'new' | 'renewal';

export interface Step {
  to: DomainState;
  /** A certificate order to start now. */
  order: OrderKind;
  /** The owner is told (a `notice` alert): a live certificate failed to renew. */
  notice: boolean;
}

const DNS_STATES: Record<Exclude<DnsVerdict, 'here' | 'unknown'>, DomainState> = {
  missing: 'dns_missing',
  elsewhere: 'dns_elsewhere',
  proxied: 'proxied',
};

export function step(from: DomainState, event: DomainEvent, facts: DomainFacts): Step {
  const stay = (to: DomainState = from): Step => ({ to, order: 'none', notice: false });
  if (event.kind === 'added') return stay(event.https ? 'checking' : 'not_managed');
  // Without the HTTPS listener nothing is fetched or served: only a save with it set moves on.
  if (from === 'not_managed') return stay();
  switch (event.kind) {
    case 'dns':
      if (event.verdict === 'unknown') return stay();
      if (event.verdict !== 'here') return stay(DNS_STATES[event.verdict]);
      return pointsHere(facts);
    case 'order_valid':
      return stay('live');
    case 'order_failed':
      // A certificate that still serves keeps the host live; the owner hears that renewal failed.
      return facts.certValid ? { to: 'live', order: 'none', notice: true } : stay('failed');
  }
}

/** The DNS is right: serve what there is, and order what is missing unless a wait runs. */
function pointsHere(f: DomainFacts): Step {
  if (f.certValid) {
    return { to: 'live', order: f.renewalDue && !f.waiting ? 'renewal' : 'none', notice: false };
  }
  if (f.waiting) return { to: 'failed', order: 'none', notice: false };
  return { to: 'certificate', order: 'new', notice: false };
}
