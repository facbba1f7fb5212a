// One check result in words: the judgment (outcome and why), the latency split into its phases
// (DNS, connect, TLS, first byte), the protocol status, the certificate and the checker's detail.
import { el, ms, STATUS_WORDS, when } from '../core/format.js';

const PHASES = [
  ['dns_ms', 'DNS'],
  ['connect_ms', 'Connect'],
  ['tls_ms', 'TLS'],
  ['ttfb_ms', 'First byte'],
];

export function phaseBar(phases, total) {
  const wrap = el('div', 'phases');
  const bar = el('div', 'phase-bar');
  bar.setAttribute('aria-hidden', 'true');
  const list = el('ul', 'phase-list');
  const sum = Math.max(1, total || PHASES.reduce((a, [k]) => a + ((phases && phases[k]) || 0), 0));
  for (const [key, label] of PHASES) {
    const v = phases ? phases[key] : null;
    if (v === null || v === undefined) continue;
    const seg = el('span', 'ph ' + key);
    seg.style.width = Math.max(0.5, (v / sum) * 100) + '%';
    bar.appendChild(seg);
    const li = el('li');
    li.append(el('span', 'sw ' + key), document.createTextNode(label + ' ' + ms(v)));
    list.appendChild(li);
  }
  if (!list.children.length) return el('p', 'muted', 'No timing phases for this kind of check.');
  wrap.append(bar, list);
  return wrap;
}

/** DNS response codes (RFC 1035 and 6895): a DNS check's `status` is one of them. */
const RCODES = { 0: 'NOERROR', 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED' };

/**
 * A result's protocol status in words for its kind: "status 200" for HTTP, the response code's
 * name for DNS ("NOERROR", not "status 0"), nothing when there is none.
 */
export function statusWords(kind, status) {
  if (status === null || status === undefined) return '';
  if (kind === 'dns') return RCODES[status] || 'rcode ' + status;
  return String(status);
}

export function resultView(r, kind) {
  const box = el('div', 'result');
  const head = el('p', 'result-head');
  head.append(
    el('span', 'status ' + r.outcome, STATUS_WORDS[r.outcome] || r.outcome),
    document.createTextNode(' ' + (r.latency_ms === null ? '' : 'in ' + ms(r.latency_ms))),
  );
  if (r.status !== null && r.status !== undefined)
    head.appendChild(
      el('span', 'muted', kind === 'dns' ? ' · answer ' + statusWords(kind, r.status) : ' · status ' + r.status),
    );
  head.appendChild(el('span', 'muted', ' · ' + when(r.at)));
  box.appendChild(head);
  if (r.error) {
    const why = el('p', 'judgment bad');
    why.append(
      el('strong', null, 'Why it failed: '),
      document.createTextNode(r.error.message + ' (' + r.error.code + ')'),
    );
    box.appendChild(why);
  } else {
    box.appendChild(
      el(
        'p',
        'judgment ok',
        r.outcome === 'slow' ? 'Good, but slower than the slow threshold.' : 'Every condition passed.',
      ),
    );
  }
  box.appendChild(phaseBar(r.phases, r.latency_ms));
  if (r.cert)
    box.appendChild(
      el(
        'p',
        'muted',
        'Certificate for ' +
          r.cert.subject +
          ' from ' +
          r.cert.issuer +
          ', valid until ' +
          when(r.cert.not_after) +
          '.',
      ),
    );
  if (r.detail) {
    const pre = el('pre', 'detail');
    pre.appendChild(el('code', null, r.detail));
    box.appendChild(pre);
  }
  return box;
}
