/**
 * Starts a helper (ns-farm.ts, ns-bridge.ts) inside a network namespace: bundled once with
 * esbuild into the test's temp dir (they are TypeScript, and the child is plain node), then run
 * as `ip netns exec <ns> node <bundle> <json options>` until it prints {"ready":true}.
 */
import * as esbuild from 'esbuild';
import * as http from 'node:http';
import * as path from 'node:path';
import { Child, startChild, stopChild } from '../../../harness/children';

export interface NsProcess {
  child: Child;
  stop(): Promise<void>;
}

export function startInNamespace(
  ns: string,
  helper: 'ns-farm' | 'ns-bridge',
  options: object,
  dir: string,
): Promise<NsProcess> {
  return startScriptInNamespace(ns, path.join(__dirname, `${helper}.ts`), options, dir);
}

/** The same for a helper of another test folder (test/agent/support/ns-relay.ts), by its path. */
export async function startScriptInNamespace(
  ns: string,
  script: string,
  options: object,
  dir: string,
): Promise<NsProcess> {
  const helper = path.basename(script, '.ts');
  const outfile = path.join(dir, `${helper}.js`);
  await esbuild.build({
    entryPoints: [script],
    bundle: true,
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  const child = startChild('ip', ['netns', 'exec', ns, process.execPath, outfile, JSON.stringify(options)]);
  await new Promise<void>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${helper} did not start:\n${child.tail()}`)), 20_000);
    child.proc.stdout?.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      if (text.includes('"ready":true')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void child.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${helper} exited:\n${child.tail()}`));
    });
  });
  return { child, stop: async () => void (await stopChild(child, 3000)) };
}

/** A JSON request to a helper's control socket. */
export function control<T>(socketPath: string, method: string, p: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: p, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as T);
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    req.setTimeout(5000, () => req.destroy(new Error(`${method} ${p}: no answer`)));
    req.on('error', reject);
    req.end();
  });
}
