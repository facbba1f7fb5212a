import type { ServerResponse } from 'node:http';

/**
 * Answers 200 with a JSON body given as pieces (pageJson): its length up front, the pieces written
 * one after the other while the socket is corked, so they leave in one write without first being
 * copied into one buffer.
 */
export function sendJsonParts(res: ServerResponse, parts: readonly Buffer[]): void {
  let length = 0;
  for (const p of parts) length += p.length;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', length);
  endWithParts(res, parts);
}

/**
 * Ends an answer (its headers set) with a body given as pieces: written one after the other while
 * the socket is corked, and end() uncorks it, so they leave in one writev.
 */
export function endWithParts(res: ServerResponse, parts: readonly Buffer[]): void {
  if (parts.length <= 1) {
    res.end(parts[0]);
    return;
  }
  res.cork();
  for (const p of parts) res.write(p);
  res.end();
}
