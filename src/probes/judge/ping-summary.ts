/**
 * Reading the summary that iputils `ping` prints, and judging it: the check passes when any reply
 * came back, unless max_loss_pct is set and the loss is above it.
 */
import type { CheckError } from '../check-result';

export interface PingSummary {
  transmitted: number;
  received: number;
  /** Percent, computed from the counts (iputils prints it rounded oddly). */
  loss_pct: number;
  /** Round trips in ms; null when no reply came back. */
  rtt: { min: number; avg: number; max: number } | null;
}

const COUNTS = /(\d+) packets transmitted, (\d+) (?:packets )?received/;
const RTT = /(?:rtt|round-trip) min\/avg\/max(?:\/(?:mdev|stddev))? = ([\d.]+)\/([\d.]+)\/([\d.]+)/;

/** null when the text holds no summary (ping failed before sending). */
export function parsePingSummary(output: string): PingSummary | null {
  const counts = COUNTS.exec(output);
  if (!counts) return null;
  const transmitted = Number(counts[1]);
  const received = Number(counts[2]);
  const rtt = RTT.exec(output);
  return {
    transmitted,
    received,
    loss_pct: transmitted === 0 ? 100 : roundTo((100 * Math.max(0, transmitted - received)) / transmitted, 1),
    rtt: rtt && received > 0 ? { min: Number(rtt[1]), avg: Number(rtt[2]), max: Number(rtt[3]) } : null,
  };
}

export function judgePing(summary: PingSummary, maxLossPct: number | null): CheckError | null {
  if (summary.received === 0) {
    return { code: 'no_reply', message: `no reply to ${summary.transmitted} of ${summary.transmitted} pings` };
  }
  if (maxLossPct !== null && summary.loss_pct > maxLossPct) {
    return {
      code: 'packet_loss',
      message: `${summary.loss_pct}% packet loss (${summary.received} of ${summary.transmitted} replies), more than ${maxLossPct}%`,
    };
  }
  return null;
}

/** Ping latency is the average round trip, to 0.1 ms like every other duration. */
export function pingLatency(summary: PingSummary): number | null {
  return summary.rtt ? roundTo(summary.rtt.avg, 1) : null;
}

function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
