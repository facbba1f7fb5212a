import { DOMAIN_STATES, DomainEvent, DomainFacts, DomainState, step } from './domain-state';

const facts = (f: Partial<DomainFacts> = {}): DomainFacts => ({
  certValid: false,
  renewalDue: false,
  waiting: false,
  ...f,
});
const dns = (verdict: 'missing' | 'elsewhere' | 'proxied' | 'here' | 'unknown'): DomainEvent => ({
  kind: 'dns',
  verdict,
});

describe('domain state machine', () => {
  it.each<[string, DomainState, DomainEvent, Partial<DomainFacts>, DomainState, 'none' | 'new' | 'renewal', boolean]>([
    // saving a host (or starting) begins with a check, or nothing when HTTPS is not served
    ['a saved host is checked', 'failed', { kind: 'added', https: true }, {}, 'checking', 'none', false],
    [
      'a saved host without the HTTPS listener is not managed',
      'live',
      { kind: 'added', https: false },
      {},
      'not_managed',
      'none',
      false,
    ],
    [
      'the HTTPS listener turned on: checked again',
      'not_managed',
      { kind: 'added', https: true },
      {},
      'checking',
      'none',
      false,
    ],
    ['not managed ignores the DNS', 'not_managed', dns('here'), {}, 'not_managed', 'none', false],
    ['not managed ignores order outcomes', 'not_managed', { kind: 'order_failed' }, {}, 'not_managed', 'none', false],
    // what the DNS says
    ['no record', 'checking', dns('missing'), {}, 'dns_missing', 'none', false],
    ['a record elsewhere', 'dns_missing', dns('elsewhere'), {}, 'dns_elsewhere', 'none', false],
    ["through the provider's proxy", 'checking', dns('proxied'), {}, 'proxied', 'none', false],
    ['a failed lookup keeps checking', 'checking', dns('unknown'), {}, 'checking', 'none', false],
    ['a failed lookup keeps a live host live', 'live', dns('unknown'), { certValid: true }, 'live', 'none', false],
    ['a failed lookup keeps dns_missing', 'dns_missing', dns('unknown'), {}, 'dns_missing', 'none', false],
    [
      'a live host whose record moved away',
      'live',
      dns('elsewhere'),
      { certValid: true },
      'dns_elsewhere',
      'none',
      false,
    ],
    ['a live host whose record was removed', 'live', dns('missing'), { certValid: true }, 'dns_missing', 'none', false],
    // pointing here
    ['pointing here without a certificate orders one', 'dns_missing', dns('here'), {}, 'certificate', 'new', false],
    [
      'pointing here with a valid certificate is live at once',
      'checking',
      dns('here'),
      { certValid: true },
      'live',
      'none',
      false,
    ],
    [
      'renewal window: a renewal order starts, the host stays live',
      'live',
      dns('here'),
      { certValid: true, renewalDue: true },
      'live',
      'renewal',
      false,
    ],
    [
      'renewal window during a wait: stays live, no order',
      'live',
      dns('here'),
      { certValid: true, renewalDue: true, waiting: true },
      'live',
      'none',
      false,
    ],
    [
      'pointing here during a wait without a certificate: failed',
      'failed',
      dns('here'),
      { waiting: true },
      'failed',
      'none',
      false,
    ],
    ['a wait ran out: a new order', 'failed', dns('here'), {}, 'certificate', 'new', false],
    ['an expired certificate is ordered again', 'live', dns('here'), { certValid: false }, 'certificate', 'new', false],
    // order outcomes
    ['an order succeeded', 'certificate', { kind: 'order_valid' }, {}, 'live', 'none', false],
    ['a renewal succeeded', 'live', { kind: 'order_valid' }, { certValid: true }, 'live', 'none', false],
    ['an order failed', 'certificate', { kind: 'order_failed' }, {}, 'failed', 'none', false],
    [
      'a renewal failed: still live, the owner is told',
      'live',
      { kind: 'order_failed' },
      { certValid: true },
      'live',
      'none',
      true,
    ],
  ])('%s: %s --%j--> %s', (_name, from, event, f, to, order, notice) => {
    expect(step(from, event, facts(f))).toEqual({ to, order, notice });
  });

  it('answers a state of the spec for every state and event', () => {
    const events: DomainEvent[] = [
      { kind: 'added', https: true },
      { kind: 'added', https: false },
      dns('missing'),
      dns('elsewhere'),
      dns('proxied'),
      dns('here'),
      dns('unknown'),
      { kind: 'order_valid' },
      { kind: 'order_failed' },
    ];
    for (const from of DOMAIN_STATES) {
      for (const event of events) {
        for (const certValid of [false, true]) {
          for (const waiting of [false, true]) {
            const s = step(from, event, facts({ certValid, waiting, renewalDue: certValid }));
            expect(DOMAIN_STATES).toContain(s.to);
            // An order never starts while a wait runs, and never leaves the host without a state that says so.
            if (waiting) expect(s.order).toBe('none');
            if (s.order === 'new') expect(s.to).toBe('certificate');
            if (s.order === 'renewal') expect(s.to).toBe('live');
          }
        }
      }
    }
  });
});
