/**
 * The stream scenario's reader: GET /api/v1/stream through the harness's SseClient (keeping
 * nothing), as a dashboard would read it. It keeps the sequence number of the newest event (ids
 * are `<boot>-<seq>`, one number after another), counts gaps (an event lost on the way leaves one),
 * and, while `measuring`, times each `check` event: received − (at_ms + latency_ms), the moment the
 * check's result existed (at_ms is when the check started, latency_ms how long it took).
 */
import { SseClient, SseEvent } from '../harness/sse';

export class StreamReader {
  /** Sequence number of the newest event (hello's tells where the stream starts). */
  lastSeq = -1;
  events = 0;
  checks = 0;
  /** Events missing between two received ones. */
  gaps = 0;
  measuring = false;
  readonly delays: number[] = [];

  private constructor(private readonly client: SseClient) {
    client.onEvent((e, receivedAt) => this.event(e, receivedAt));
  }

  static async open(url: string, headers: Record<string, string>): Promise<StreamReader> {
    const client = await SseClient.open(url, headers, { keep: false });
    if (client.status !== 200) {
      client.close();
      throw new Error(`GET ${url}: HTTP ${client.status}`);
    }
    return new StreamReader(client);
  }

  /** Characters of the stream received. */
  get bytes(): number {
    return this.client.received;
  }

  get ended(): boolean {
    return this.client.ended;
  }

  close(): Promise<void> {
    this.client.close();
    return this.client.closed;
  }

  private event(e: SseEvent, receivedAt: number): void {
    const seq = e.id === '' ? -1 : Number(e.id.slice(e.id.lastIndexOf('-') + 1));
    if (e.event === 'hello' || e.event === 'reset') {
      this.lastSeq = seq;
      return;
    }
    if (this.lastSeq >= 0 && seq !== this.lastSeq + 1) this.gaps += 1;
    this.lastSeq = seq;
    this.events += 1;
    if (e.event !== 'check') return;
    this.checks += 1;
    if (!this.measuring) return;
    const c = JSON.parse(e.data) as { at_ms: number; latency_ms: number | null };
    this.delays.push(receivedAt - (c.at_ms + (c.latency_ms ?? 0)));
  }
}
