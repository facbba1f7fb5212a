/**
 * The built service as its own process (`node dist/main.js serve`), as an operator runs it, for the
 * fault tests: killed with SIGKILL, started again on the same data dir, run inside a network
 * namespace (`ip netns exec`), and with every line it writes kept in a log file, so a test can
 * grep the whole log for the secrets it used (harness/children keeps only the last lines).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { authenticator } from 'otplib';
import { Child, startChild, stopChild } from '../../../harness/children';
import { freePort, SERVICE_ENTRY } from '../../../harness/paths';
import { Api, Answer } from './api';

export const OWNER = { email: 'faults@example.com', password: 'fault tests password 0042' };

export interface ServiceOptions {
  dataDir: string;
  /** Where every line of stdout and stderr is appended (kept across restarts). */
  logFile: string;
  /** Run inside this network namespace; the API is then reached through `api` (see NsBridge). */
  netns?: string;
  /** Listen here instead of a free port on 127.0.0.1 (inside a namespace: 127.0.0.1:<port> there). */
  port?: number;
  env?: Record<string, string>;
  /** How to reach the API once started (default: http://127.0.0.1:<port>). */
  api?: (port: number) => Api;
}

export class ServiceProcess {
  private constructor(
    readonly child: Child,
    readonly api: Api,
    readonly port: number,
    readonly env: Record<string, string>,
    /** Wall-clock ms when it first answered GET /api/health. */
    readonly healthyAt: number,
  ) {}

  get pid(): number {
    return this.child.pid;
  }

  static async start(o: ServiceOptions): Promise<ServiceProcess> {
    if (!fs.existsSync(SERVICE_ENTRY)) throw new Error(`${SERVICE_ENTRY} is missing: run \`npm run build\` first`);
    const port = o.port ?? (await freePort());
    const env: Record<string, string> = {
      FARSIGHT_CANARIES: 'off',
      FARSIGHT_LOG_LEVEL: 'info',
      ...o.env,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      FARSIGHT_DATA_DIR: o.dataDir,
      FARSIGHT_LISTEN: `127.0.0.1:${port}`,
      FARSIGHT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    };
    const args = [SERVICE_ENTRY, 'serve'];
    const child = o.netns
      ? startChild('ip', ['netns', 'exec', o.netns, process.execPath, ...args], { env })
      : startChild(process.execPath, args, { env });
    const log = fs.createWriteStream(o.logFile, { flags: 'a' });
    child.proc.stdout?.on('data', (c: Buffer) => log.write(c));
    child.proc.stderr?.on('data', (c: Buffer) => log.write(c));
    void child.exited.then(() => log.end());
    const api = o.api ? o.api(port) : Api.tcp(`http://127.0.0.1:${port}`);
    // Generous: on a loaded machine (CI runs two test files at once) a start with 1,000 monitors is slow.
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.proc.exitCode !== null || child.proc.signalCode !== null)
        throw new Error(`the service exited before it was healthy:\n${child.tail()}`);
      const a = await api.request('GET', '/api/health', { timeoutMs: 10_000 }).catch(() => null);
      if (a?.status === 200) break;
      if (Date.now() > deadline) {
        await stopChild(child);
        throw new Error(`the service was not healthy within 120 s:\n${child.tail()}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return new ServiceProcess(child, api, port, env, Date.now());
  }

  /** SIGKILL, and wait until it is gone. */
  async kill(): Promise<void> {
    if (this.child.proc.exitCode === null && this.child.proc.signalCode === null) this.child.proc.kill('SIGKILL');
    await this.child.exited;
  }

  /** SIGTERM (a clean stop); the exit code must be 0. */
  async stop(): Promise<void> {
    const code = await stopChild(this.child);
    if (code !== 0) throw new Error(`the service exited with ${code}:\n${this.child.tail()}`);
  }

  /**
   * First-run setup over HTTP (setup link → TOTP → owner session), then one API key per scope
   * asked for. Returns the session cookie, the TOTP secret and the keys: all of them are secrets
   * that must never show in a log.
   */
  async owner(scopes: readonly ('read' | 'write' | 'admin')[] = ['admin']): Promise<Owner> {
    const link = spawnSync(process.execPath, [SERVICE_ENTRY, 'setup-link'], {
      env: this.env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (link.status !== 0) throw new Error(`setup-link failed: ${link.stderr}`);
    const setupUrl = link.stdout.trim();
    const token = setupUrl.split('/').pop() as string;
    const info = await this.api.json<{ totp: { secret: string } }>('GET', `/api/v1/auth/setup/${token}`);
    const origin = this.env.FARSIGHT_PUBLIC_URL;
    const setup = await this.api.request('POST', `/api/v1/auth/setup/${token}`, {
      headers: { Origin: origin },
      body: { ...OWNER, code: authenticator.generate(info.totp.secret) },
    });
    if (setup.status !== 200) throw new Error(`setup failed: HTTP ${setup.status} ${setup.body.slice(0, 300)}`);
    const setCookie = ([] as string[]).concat(setup.headers['set-cookie'] ?? []);
    const cookie = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('service_session='));
    if (!cookie) throw new Error('setup answered without a service_session cookie');
    const recovery = (JSON.parse(setup.body) as { recovery_codes: string[] }).recovery_codes;
    const keys: Partial<Record<'read' | 'write' | 'admin', string>> = {};
    for (const scope of scopes) {
      const r = await this.api.json<{ key: string }>('POST', '/api/v1/keys', {
        headers: { Cookie: cookie, Origin: origin },
        body: { name: `faults ${scope}`, scope },
      });
      keys[scope] = r.key;
    }
    return { cookie, origin, totpSecret: info.totp.secret, setupToken: token, recoveryCodes: recovery, keys };
  }
}

export interface Owner {
  /** `service_session=<token>` */
  cookie: string;
  origin: string;
  totpSecret: string;
  setupToken: string;
  recoveryCodes: string[];
  keys: Partial<Record<'read' | 'write' | 'admin', string>>;
}

export function bearer(key: string | undefined): Record<string, string> {
  if (!key) throw new Error('no such key');
  return { Authorization: `Bearer ${key}` };
}

/** Every secret value of an owner, for log greps. */
export function ownerSecrets(o: Owner): string[] {
  return [
    o.cookie.split('=')[1],
    o.totpSecret,
    o.setupToken,
    OWNER.password,
    ...o.recoveryCodes,
    ...Object.values(o.keys).filter((k): k is string => !!k),
  ];
}

/**
 * The secrets (at least 8 characters each, so a short one cannot match by chance) found in a log;
 * each is also looked for URL-encoded and base64-encoded.
 */
export function secretsIn(logText: string, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const s of new Set(secrets)) {
    if (s.length < 8) throw new Error(`secret too short to grep for: ${s.length} characters`);
    const forms = [s, encodeURIComponent(s), Buffer.from(s).toString('base64')];
    if (forms.some((f) => logText.includes(f))) found.push(s);
  }
  return found;
}

export function readLog(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/** A directory for a test's logs that is kept (under the temp dir) so a failure can be read afterwards. */
export function logPath(dir: string, name: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.log`);
}

export type { Answer };
