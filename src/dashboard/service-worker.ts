/**
 * The service worker's source: public/dashboard/sw.js with the shell it keeps written in front
 * (the content-hashed URLs of the shell's files and the offline page) and a version made from
 * that list, so a new release (any changed file) installs a new worker that drops the old cache.
 * Pure.
 */
import { createHash } from 'node:crypto';

export function serviceWorkerSource(body: string, shell: readonly string[]): string {
  const list = [...shell].sort();
  const version = createHash('sha256').update(list.join('\n')).digest('hex').slice(0, 12);
  return `const SHELL = ${JSON.stringify(list)};\nconst VERSION = ${JSON.stringify(version)};\n${body}`;
}
