/**
 * dns `expect` and the answer list shown in `detail`. Answers arrive as text: an address for
 * A/AAAA, a name for CNAME/NS, `priority exchange` for MX, a TXT record's strings joined.
 * Names compare case-insensitively (DNS names are), TXT exactly.
 */
import type { CheckError } from '../check-result';
import type { DnsRecord } from '../kinds';
import { clip } from './clip';

const DETAIL_MAX = 500;

export function judgeDnsExpect(record: DnsRecord, answers: string[], expect: string | null): CheckError | null {
  if (expect === null) return null;
  const match =
    record === 'TXT'
      ? (answer: string) => answer.includes(expect)
      : (answer: string) => answer.toLowerCase().includes(expect.toLowerCase().replace(/\.$/, ''));
  if (answers.some(match)) return null;
  return {
    code: 'expect',
    message: clip(
      `no ${record} answer contains ${JSON.stringify(expect)} (got ${listAnswers(record, answers)})`,
      DETAIL_MAX,
    ),
  };
}

/** `detail` of a dns check: the record type and its answers, trimmed to about 500 characters. */
export function describeAnswers(record: DnsRecord, answers: string[]): string {
  return clip(`${record}: ${listAnswers(record, answers)}`, DETAIL_MAX);
}

function listAnswers(record: DnsRecord, answers: string[]): string {
  const shown = record === 'TXT' ? answers.map((a) => JSON.stringify(a)) : answers;
  return shown.join(', ');
}
