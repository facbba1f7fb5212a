/**
 * tls checks: handshake, then judge the certificate (chain, expiry, name). The certificate is
 * reported whenever one was presented; warning at tls_warn_days is the engine's job.
 * Phases: dns, connect, tls.
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { CertInfo, CheckError, CheckResult } from '../check-result';
import type { CheckContext, TlsSettings } from '../kinds';
import { describeCertValidity } from '../judge/cert-validity';
import { certInfo, judgePeer, skipNodeIdentityCheck, trustOptions } from './cert';
import { Deadline, lapTimer, msSince, withDeadline } from './deadline';
import type { CheckerEnv } from './env';
import { describeSocketError, hostPort } from './net-errors';
import { emptyPhases, failure, judged } from './result-builders';
import { checkAddress, guardedLookup } from './connect-address';

export async function checkTls(settings: TlsSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const phases = emptyPhases();
  const where = hostPort(settings.host, settings.port);
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const { error, cert } = await probe(settings, ctx, env, deadline, phases);
      const detail = cert ? describeCertValidity(cert, atMs) : null;
      return judged(atMs, { latency_ms: msSince(start), phases, cert, detail }, error);
    },
    () => {
      const stage = phases.connect_ms === null ? 'while connecting' : 'during the TLS handshake';
      const error = failure('timeout', `timed out after ${ctx.timeout_ms} ms ${stage} (${where})`);
      return judged(atMs, { latency_ms: msSince(start), phases }, error);
    },
  );
}

async function probe(
  settings: TlsSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  phases: CheckResult['phases'],
): Promise<{ error: CheckError | null; cert: CertInfo | null }> {
  if (net.isIP(settings.host)) {
    const problem = checkAddress(settings.host, 'auto', ctx.allow_private_targets);
    if (problem) return { error: problem, cert: null };
  }
  const identity = settings.sni || settings.host;
  const socket = tls.connect({
    host: settings.host,
    port: settings.port,
    servername: net.isIP(identity) ? '' : identity,
    rejectUnauthorized: false,
    checkServerIdentity: skipNodeIdentityCheck,
    lookup: guardedLookup('auto', ctx.allow_private_targets),
    ...trustOptions(env),
  });
  deadline.onExpire(() => socket.destroy());
  try {
    await handshake(socket, phases);
    const cert = certInfo(socket.getPeerCertificate());
    if (!cert) return { error: failure('tls', 'the server presented no certificate'), cert: null };
    // Stored before tls_verify and cert_sha256 existed, a monitor has neither: it verifies, as it did.
    return {
      error: judgePeer(socket, identity, cert, settings.cert_sha256 ?? null, settings.tls_verify !== false),
      cert,
    };
  } catch (err) {
    return { error: describeSocketError(err, hostPort(settings.host, settings.port)), cert: null };
  } finally {
    socket.destroy();
  }
}

function handshake(socket: tls.TLSSocket, phases: CheckResult['phases']): Promise<void> {
  const lap = lapTimer();
  socket.once('lookup', () => {
    phases.dns_ms = lap();
  });
  socket.once('connect', () => {
    phases.connect_ms = lap();
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      phases.tls_ms = lap();
      resolve();
    });
  });
}
