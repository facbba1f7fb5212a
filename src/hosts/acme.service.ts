/**
 * Certificate orders with acme-client, step by step (not client.auto: our states, pre-check and
 * back-off sit between the steps):
 *   1. the account (one key in the data dir, registered once per ACME directory, its URL kept);
 *   2. an order for the host, its authorization, the HTTP-01 challenge's key authorization put
 *      where the listeners answer it;
 *   3. our own pre-check: the challenge fetched on port 80 at each address the zone's
 *      nameservers gave, under the host's name, before the CA is told to validate. Another
 *      server answering there fails the order at once (the CA would fail it too); no answer at
 *      all does not (a router without NAT loopback never lets a server reach its own public
 *      address, while the CA can), but its words join the CA's if validation then fails;
 *   4. validation, finalization with a fresh ECDSA P-256 key, the chain downloaded, checked
 *      against the key, and saved (cert-store.ts).
 * acme-client's own retries sleep for minutes (and for a Retry-After of hours): they are off, and a
 * rate limit's Retry-After goes back to the caller, who waits it out in the domain's back-off.
 * acme-client (with axios and node-forge) takes about 300 ms to load: it is loaded at the first
 * order, not at start.
 */
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type * as Acme from 'acme-client';
import { AsyncLocalStorage } from 'node:async_hooks';
import { X509Certificate, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import { CLOCK, Clock } from '../common/clock';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { describeAcmeError, isRateLimit, parseRetryAfter } from './acme-errors';
import { CertStore, StoredCert } from './cert-store';
import { ChallengeStore } from './challenges';
import { HOSTS_OPTIONS, HostsOptions } from './hosts-options';
import { fetchChallenge } from './reach-probe';

export type OrderOutcome = { ok: true; cert: StoredCert } | { ok: false; detail: string; retryAfterMs: number | null };

interface Trace {
  agents: { http: http.Agent; https: https.Agent };
  timeoutMs: number;
  retryAfterMs: number | null;
  /** The last network failure (timeout, refusal): acme-client's retry interceptor loses it on the way. */
  transportError: unknown;
}

class OrderFailure extends Error {}

@Injectable()
export class AcmeService implements OnModuleDestroy {
  private readonly trace = new AsyncLocalStorage<Trace>();
  private readonly ca: string[];
  private loaded: Promise<{ acme: typeof Acme; interceptors: { request: number; response: number } }> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(HOSTS_OPTIONS) private readonly opts: HostsOptions,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly store: CertStore,
    private readonly challenges: ChallengeStore,
  ) {
    const extra = config.acmeCaFile ? [fs.readFileSync(config.acmeCaFile, 'utf8')] : [];
    this.ca = [...tls.rootCertificates, ...extra];
  }

  private acme(): Promise<typeof Acme> {
    this.loaded ??= import('acme-client').then((acme) => {
      // acme-client's shared axios instance: its sleeping retries off; our timeouts, CAs and no
      // proxy for the requests of our orders only (the trace of the order running them).
      (acme.axios.defaults as unknown as { acmeSettings: { retryMaxAttempts: number } }).acmeSettings.retryMaxAttempts =
        0;
      const interceptors = {
        request: acme.axios.interceptors.request.use((cfg) => {
          const t = this.trace.getStore();
          if (t) {
            cfg.httpAgent = t.agents.http;
            cfg.httpsAgent = t.agents.https;
            // A backstop for a server that trickles bytes; the sockets' own idle timeout (below) says why.
            cfg.timeout = 4 * t.timeoutMs;
            cfg.proxy = false;
            cfg.maxContentLength = 1 << 20;
          }
          return cfg;
        }),
        response: acme.axios.interceptors.response.use((resp) => {
          const t = this.trace.getStore();
          if (t && isRateLimit(resp.status, resp.data))
            t.retryAfterMs = parseRetryAfter(resp.headers['retry-after'], this.clock.now()) ?? t.retryAfterMs;
          return resp;
        }),
      };
      return { acme, interceptors };
    });
    return this.loaded.then((l) => l.acme);
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.loaded) return;
    const { acme, interceptors } = await this.loaded;
    acme.axios.interceptors.request.eject(interceptors.request);
    acme.axios.interceptors.response.eject(interceptors.response);
  }

  /** Orders a certificate for `host`, which the zone's nameservers say points at `pointsAt`. */
  async order(host: string, pointsAt: readonly string[]): Promise<OrderOutcome> {
    const trace: Trace = {
      agents: { http: new http.Agent(), https: new https.Agent({ ca: this.ca }) },
      timeoutMs: this.opts.acmeTimeoutMs,
      retryAfterMs: null,
      transportError: null,
    };
    watchSockets(trace);
    return this.trace.run(trace, async () => {
      const tokens: string[] = [];
      try {
        return { ok: true, cert: await this.run(host, pointsAt, tokens) };
      } catch (err) {
        const cause = err instanceof OrderFailure ? err : (trace.transportError ?? err);
        const detail =
          cause instanceof OrderFailure
            ? cause.message
            : describeAcmeError(cause, this.config.acmeDirectory, this.opts.acmeTimeoutMs);
        return { ok: false, detail, retryAfterMs: trace.retryAfterMs };
      } finally {
        for (const t of tokens) this.challenges.delete(t);
        trace.agents.http.destroy();
        trace.agents.https.destroy();
      }
    });
  }

  private async run(host: string, pointsAt: readonly string[], tokens: string[]): Promise<StoredCert> {
    const acme = await this.acme();
    const directory = this.config.acmeDirectory;
    const accountKey = this.store.accountKey(() => createEcKey());
    const accountUrl = this.store.accountUrl(directory);
    const client = new acme.Client({
      directoryUrl: directory,
      accountKey,
      ...(accountUrl ? { accountUrl } : {}),
      backoffAttempts: this.opts.pollAttempts,
      backoffMin: this.opts.pollMinMs,
      backoffMax: this.opts.pollMaxMs,
    });
    if (!accountUrl) {
      await client.createAccount({ termsOfServiceAgreed: true });
      this.store.setAccountUrl(directory, client.getAccountUrl());
    }
    let order: Acme.Order;
    try {
      order = await client.createOrder({ identifiers: [{ type: 'dns', value: host }] });
    } catch (err) {
      // A CA that lost the account (a reset test CA, a deactivated account): registered again next time.
      if (
        accountUrl &&
        /account/i.test(String((err as Error).message)) &&
        /not exist|unknown|deactivated/i.test(String((err as Error).message))
      ) {
        this.store.setAccountUrl(directory, null);
      }
      throw err;
    }
    for (const authz of await client.getAuthorizations(order)) {
      if (authz.status === 'valid') continue;
      const challenge = authz.challenges.find((c) => c.type === 'http-01');
      if (!challenge)
        throw new OrderFailure(
          `the CA offers no HTTP-01 challenge for ${host} (offered: ${authz.challenges.map((c) => c.type).join(', ') || 'none'})`,
        );
      const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
      tokens.push(challenge.token);
      this.challenges.set(challenge.token, keyAuthorization);
      const hint = await this.preCheck(host, pointsAt, challenge.token, keyAuthorization);
      await client.completeChallenge(challenge);
      await this.waitValid(client, challenge, host, 'validation', hint);
    }
    const [key, csr] = await acme.crypto.createCsr({ commonName: host, altNames: [host] }, createEcKey());
    const finalized = await client.finalizeOrder(order, csr);
    const chain = await client.getCertificate(finalized);
    checkIssued(host, key.toString(), chain);
    return this.store.save(host, key.toString(), chain);
  }

  /**
   * Every address should answer the challenge under the host's name, as the CA will ask it.
   * Throws when another server answers; returns what could not be reached (or null).
   */
  private async preCheck(
    host: string,
    pointsAt: readonly string[],
    token: string,
    keyAuthorization: string,
  ): Promise<string | null> {
    const unreachable: string[] = [];
    for (const ip of pointsAt) {
      const r = await fetchChallenge(
        ip,
        this.opts.challengePort,
        host,
        token,
        keyAuthorization,
        this.opts.probeTimeoutMs,
      );
      if (r.ok) continue;
      if (r.kind === 'wrong') throw new OrderFailure(`pre-check before asking the CA: ${r.detail}`);
      unreachable.push(r.detail);
    }
    return unreachable.length ? unreachable.join('; ') : null;
  }

  private async waitValid(
    client: Acme.Client,
    item: { url: string },
    host: string,
    what: string,
    hint: string | null = null,
  ): Promise<void> {
    try {
      await client.waitForValidStatus(item);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      const also = hint ? ` (our own pre-check could not reach it either: ${hint})` : '';
      if (text === 'Operation is pending or processing')
        throw new OrderFailure(`the CA did not finish the ${what} of ${host} in time${also}`);
      throw new OrderFailure(
        `the CA's ${what} of ${host} failed: ${describeAcmeError(err, this.config.acmeDirectory, this.opts.acmeTimeoutMs).replace(/^.*refused the order: /, '')}${also}`,
      );
    }
  }
}

/**
 * Every socket of an order's agents: an idle timeout, and its error kept in the trace, because
 * acme-client's retry interceptor drops a network error's cause (it answers a TypeError instead).
 */
function watchSockets(t: Trace): void {
  for (const agent of [t.agents.http, t.agents.https] as (http.Agent & {
    createConnection: (...a: unknown[]) => Socket;
  })[]) {
    const create = agent.createConnection.bind(agent);
    agent.createConnection = (...args: unknown[]) => {
      const socket = create(...args);
      socket.setTimeout(t.timeoutMs, () => {
        const err = Object.assign(new Error(`timeout of ${t.timeoutMs}ms exceeded`), { code: 'ETIMEDOUT' });
        t.transportError = err;
        socket.destroy(err);
      });
      socket.on('error', (err) => {
        t.transportError ??= err;
      });
      return socket;
    };
  }
}

function createEcKey(): Buffer {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return Buffer.from(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
}

/** The chain must name the host and belong to our key: a CA (or an impostor) could send anything. */
function checkIssued(host: string, key: string, chain: string): void {
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(chain);
  } catch {
    throw new OrderFailure('the CA sent something that is not a certificate');
  }
  if (!leaf.checkPrivateKey(createPrivateKey(key))) throw new OrderFailure('the CA sent a certificate for another key');
  if (leaf.checkHost(host) === undefined)
    throw new OrderFailure(`the CA sent a certificate that does not name ${host}`);
}
