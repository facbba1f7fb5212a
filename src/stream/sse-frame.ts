/**
 * Server-Sent Events framing (WHATWG HTML, "Server-sent events"): an event is `id:`, `event:` and
 * one `data:` line, ended by a blank line; a line starting with `:` is a comment. The data is JSON,
 * and JSON.stringify never writes a raw CR or LF, so one data line always carries the whole
 * payload. Ids and event names are ours (no line breaks). Pure.
 */

/** One event, optionally opening with a `retry:` line (the client's reconnection delay). */
export function eventFrame(id: string, event: string, data: unknown, retryMs?: number): string {
  return jsonEventFrame(id, event, JSON.stringify(data), retryMs);
}

/** The same, with the data already written as JSON (one line: no raw CR or LF in it). */
export function jsonEventFrame(id: string, event: string, json: string, retryMs?: number): string {
  const retry = retryMs === undefined ? '' : `retry: ${retryMs}\n`;
  return `${retry}id: ${id}\nevent: ${event}\ndata: ${json}\n\n`;
}

/** A comment: clients ignore it; it keeps proxies and NAT tables from closing a quiet connection. */
export function commentFrame(text: string): string {
  return `: ${text}\n\n`;
}
