/**
 * The service under test, run as a user runs it: `node dist/main.js serve` in its own process with
 * a temp data dir, on 127.0.0.1. Also the HTTP-only way to an admin API key (setup link → TOTP →
 * owner session → POST /keys), and bulk helpers that stay under the per-key rate limit.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { authenticator } from 'otplib';
import { Child, startChild, stopChild } from './children';
import { request, requestJson } from './http-client';
import { freePort, SERVICE_ENTRY } from './paths';

export const OWNER = { email: 'bench@example.com', password: 'bench password 12345' };
/** API keys get 600 requests a minute each (a full bucket to start with): stay under it. */
export const REQUESTS_PER_KEY = 550;
const BULK_MAX = 1000;

export interface StartOptions {
  dataDir: string;
  /** Write a V8 CPU profile of the service into this dir (node --cpu-prof), read on exit. */
  profileDir?: string;
  /** Run this single executable (packaging/) instead of `node dist/main.js`. */
  binary?: string;
  /** Run this main.js with node instead of this tree's dist/main.js (another build, for `compare`). */
  entry?: string;
  /** Extra node options for the service (experiments: --trace-gc, --max-semi-space-size=N, ...). */
  nodeArgs?: string[];
  /** Extra environment for the service (FARSIGHT_SMTP, ...); the harness's own variables below win over it. */
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /** Sees every line the service writes (its log, and what --trace-gc prints). */
  onLine?: (line: string) => void;
}

export class Service {
  private constructor(
    readonly child: Child,
    readonly url: string,
    readonly dataDir: string,
    /** From spawn to the first healthy answer of GET /api/health, ms. */
    readonly startupMs: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The owner's session after adminKeys(), fresh: createLocation() adds locations with it, as the Locations page does. */
  private session: string | null = null;

  get pid(): number {
    return this.child.pid;
  }

  get dbFile(): string {
    return path.join(this.dataDir, 'farsight.db');
  }

  static async start(o: StartOptions): Promise<Service> {
    const entry = o.binary ?? o.entry ?? SERVICE_ENTRY;
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...o.env,
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      FARSIGHT_DATA_DIR: o.dataDir,
      FARSIGHT_LISTEN: `127.0.0.1:${port}`,
      FARSIGHT_PUBLIC_URL: url,
      FARSIGHT_CANARIES: 'off',
      FARSIGHT_LOG_LEVEL: 'warn',
    };
    const nodeArgs = [...(o.nodeArgs ?? []), ...(o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.profileDir}`] : [])];
    const started = performance.now();
    const child = o.binary
      ? startChild(o.binary, ['serve'], { env }, o.onLine)
      : startChild(process.execPath, [...nodeArgs, entry, 'serve'], { env }, o.onLine);
    const startupMs = await waitHealthy(url, child, started, o.startTimeoutMs ?? 60_000);
    return new Service(child, url, o.dataDir, startupMs, env);
  }

  /** Graceful stop (SIGTERM: the writer flushes, a CPU profile is written). */
  async stop(): Promise<void> {
    const code = await stopChild(this.child);
    if (code !== 0) process.stderr.write(`bench: the service exited with ${code}\n${this.child.tail()}\n`);
  }

  /** Completes first-run setup over HTTP and mints `count` admin keys. */
  async adminKeys(count: number): Promise<KeyPool> {
    const link = spawnSync(process.execPath, [SERVICE_ENTRY, 'setup-link'], {
      env: this.env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (link.status !== 0) throw new Error(`setup-link failed: ${link.stderr}`);
    const token = link.stdout.trim().split('/').pop() as string;
    const info = await requestJson<{ totp: { secret: string } }>('GET', `${this.url}/api/v1/auth/setup/${token}`);
    const setup = await request('POST', `${this.url}/api/v1/auth/setup/${token}`, {
      headers: { Origin: this.url },
      body: { ...OWNER, code: authenticator.generate(info.totp.secret) },
    });
    if (setup.status !== 200) throw new Error(`setup failed: HTTP ${setup.status} ${setup.body.slice(0, 300)}`);
    const setCookie = setup.headers['set-cookie'] ?? [];
    const cookie = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('service_session='));
    if (!cookie) throw new Error('setup answered without a service_session cookie');
    this.session = cookie;
    const keys: string[] = [];
    for (let i = 0; i < count; i++) {
      const r = await requestJson<{ key: string }>('POST', `${this.url}/api/v1/keys`, {
        headers: { Cookie: cookie, Origin: this.url },
        body: { name: `bench ${i + 1}`, scope: 'admin' },
      });
      keys.push(r.key);
    }
    return new KeyPool(keys);
  }

  /** Adds a probe location with the owner's session (after adminKeys()); its id and agent token (docs/agents.md). */
  async createLocation(name: string): Promise<{ id: number; name: string; token: string }> {
    if (!this.session) throw new Error('createLocation needs adminKeys() first (it signs the owner in)');
    return requestJson('POST', `${this.url}/api/v1/locations`, {
      headers: { Cookie: this.session, Origin: this.url },
      body: { name },
    });
  }

  /** Creates monitors with POST /monitors/bulk, 1,000 per request; throws on any item error. */
  async createMonitors(keys: KeyPool, monitors: readonly object[]): Promise<void> {
    for (let i = 0; i < monitors.length; i += BULK_MAX) {
      const part = monitors.slice(i, i + BULK_MAX);
      const a = await requestJson<{ created: string[]; errors: unknown[] }>(
        'POST',
        `${this.url}/api/v1/monitors/bulk`,
        {
          headers: keys.header(),
          body: { monitors: part },
          timeoutMs: 300_000,
        },
      );
      if (a.errors.length) throw new Error(`bulk create refused items: ${JSON.stringify(a.errors.slice(0, 3))}`);
    }
  }

  /** Ids of every monitor (optionally of one kind), following next_cursor. */
  async monitorIds(keys: KeyPool, kind?: string): Promise<number[]> {
    const ids: number[] = [];
    let before: string | number | null = null;
    do {
      const q = new URLSearchParams({ limit: '500' });
      if (kind) q.set('kind', kind);
      if (before !== null) q.set('before', String(before));
      const page: { items: { id: number }[]; next_cursor: string | number | null } = await requestJson(
        'GET',
        `${this.url}/api/v1/monitors?${q}`,
        {
          headers: keys.header(),
        },
      );
      ids.push(...page.items.map((m) => m.id));
      before = page.next_cursor;
    } while (before !== null);
    return ids;
  }
}

/** Round-robin over API keys so that no key reaches its rate limit. */
export class KeyPool {
  private i = 0;

  constructor(readonly keys: readonly string[]) {}

  /** Keys needed for `requests` requests within a minute. */
  static sizeFor(requests: number): number {
    return Math.max(1, Math.ceil(requests / REQUESTS_PER_KEY));
  }

  header(): Record<string, string> {
    const key = this.keys[this.i++ % this.keys.length];
    return { Authorization: `Bearer ${key}` };
  }
}

async function waitHealthy(url: string, child: Child, started: number, timeoutMs: number): Promise<number> {
  const deadline = started + timeoutMs;
  while (performance.now() < deadline) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      throw new Error(`the service exited before it was healthy:\n${child.tail()}`);
    }
    try {
      const a = await request('GET', `${url}/api/health`, { timeoutMs: 2000 });
      if (a.status === 200 && (JSON.parse(a.body) as { ok?: boolean }).ok === true) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await stopChild(child);
  throw new Error(`the service was not healthy within ${timeoutMs} ms:\n${child.tail()}`);
}
