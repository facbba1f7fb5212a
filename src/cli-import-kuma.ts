/**
 * `farsight import-kuma FILE [--apply] [--json] [--url URL]` (docs/import-kuma.md): sends a copy
 * of an Uptime Kuma database or backup to the running service's POST /api/v1/import/kuma and
 * prints its report. Through the service, not into its database: the import then runs the same
 * checks and the same one transaction as POST /import, seals secrets with the service's key, and
 * the running engine schedules the new monitors at once (a write beside the service would be seen
 * only at its next start). The credential is an admin API key in FARSIGHT_API_KEY (or in the file
 * FARSIGHT_API_KEY_FILE names, for systemd credentials); the address is the service's own
 * FARSIGHT_LISTEN unless --url says otherwise.
 */
import * as fs from 'node:fs';
import type { AppConfig } from './config/config';
import { ApiError } from './common/http/api-error';
import { copyForUpload } from './system/kuma/kuma-copy';
import type { KumaReport } from './system/kuma/kuma-report';
import { reportText } from './system/kuma/kuma-report';

export const IMPORT_KUMA_USAGE = 'usage: farsight import-kuma FILE [--apply] [--json] [--url URL]';

interface Args {
  file: string;
  apply: boolean;
  json: boolean;
  url: string | null;
}

function parseArgs(rest: string[]): Args | string {
  const out: Args = { file: '', apply: false, json: false, url: null };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--apply') out.apply = true;
    else if (a === '--json') out.json = true;
    else if (a === '--url') out.url = rest[++i] ?? '';
    else if (a.startsWith('--url=')) out.url = a.slice(6);
    else if (a.startsWith('-')) return `unknown option ${a}`;
    else if (out.file) return 'give one FILE';
    else out.file = a;
  }
  if (!out.file) return 'give the Kuma database (kuma.db) or JSON backup to import';
  if (out.url !== null && !/^https?:\/\/[^\s/]+/.test(out.url)) return "--url must be the service's http(s):// address";
  return out;
}

function apiKey(): string | null {
  const file = process.env.FARSIGHT_API_KEY_FILE;
  const key = file ? fs.readFileSync(file, 'utf8') : process.env.FARSIGHT_API_KEY;
  return key?.trim() || null;
}

/** The address the service listens on, as this machine reaches it (0.0.0.0 and :: through loopback). */
function serviceUrl(config: AppConfig): string {
  const { host, port } = config.listen;
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

export async function importKumaCommand(config: AppConfig, rest: string[]): Promise<number> {
  const args = parseArgs(rest);
  const fail = (message: string, code = 1) => {
    process.stderr.write(`farsight import-kuma: ${message}\n`);
    return code;
  };
  if (typeof args === 'string') return fail(`${args}\n${IMPORT_KUMA_USAGE}`, 2);
  const key = apiKey();
  if (!key)
    return fail(
      'set FARSIGHT_API_KEY to an admin API key of the service (the dashboard: Settings → API keys; scope admin). The import goes through the running service so its engine picks the monitors up at once.',
      2,
    );
  if (!fs.existsSync(args.file)) return fail(`${args.file}: no such file`);
  let copy;
  try {
    copy = await copyForUpload(args.file);
  } catch (err) {
    if (err instanceof ApiError) return fail(err.message.replace(/^file: /, ''));
    throw err;
  }
  const base = (args.url ?? serviceUrl(config)).replace(/\/+$/, '');
  try {
    let res: Response;
    try {
      res = await fetch(`${base}/api/v1/import/kuma${args.apply ? '?apply=true' : ''}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/octet-stream' },
        body: fs.readFileSync(copy.file),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? String(err);
      return fail(`cannot reach the service at ${base} (${cause}): is it running? (--url gives another address)`);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(`the service answered HTTP ${res.status} with something that is not JSON`);
    }
    if (!res.ok) {
      const e = (body as { error?: { message?: string } }).error;
      return fail(`${e?.message?.replace(/^file: /, '') ?? `HTTP ${res.status}`}`);
    }
    const report = body as KumaReport;
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
    return 0;
  } finally {
    copy.remove();
  }
}
