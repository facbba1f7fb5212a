/**
 * smtp checks: the greeting (220), EHLO, and TLS: STARTTLS after EHLO or implicit TLS from the
 * first byte, with the certificate judged as the tls kind judges it (checkers/cert.ts; its expiry
 * is warned about by the engine at tls_warn_days). Then QUIT, politely; no mail is sent.
 * Phases: dns, connect, tls, ttfb (connection ready to the greeting).
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { CertInfo, CheckError, CheckResult } from '../check-result';
import type { CheckContext, SmtpSettings } from '../kinds';
import { describeCertValidity } from '../judge/cert-validity';
import { clip } from '../judge/clip';
import { certInfo, judgePeer, skipNodeIdentityCheck, trustOptions } from '../checkers/cert';
import { checkAddress, guardedLookup } from '../checkers/connect-address';
import { Deadline, lapTimer, msSince, withDeadline } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { describeSocketError, hostPort } from '../checkers/net-errors';
import { CheckFailure, emptyPhases, failure, judged } from '../checkers/result-builders';
import {
  describeGreeting,
  judgeEhlo,
  judgeGreeting,
  judgeStartTls,
  REPLY_MAX_BYTES,
  SmtpReply,
  takeReply,
} from './smtp-reply';

type Stage = 'connecting' | 'the TLS handshake' | 'the greeting' | 'the EHLO answer' | 'the STARTTLS answer';

/** What the check learnt so far; the deadline's message reads it. */
interface Trace {
  phases: CheckResult['phases'];
  cert: CertInfo | null;
  stage: Stage;
  greeting: SmtpReply | null;
}

/** How long QUIT's 221 is waited for: politeness must not turn a good check into a timeout. */
const QUIT_WAIT_MS = 1000;

export async function checkSmtp(settings: SmtpSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const trace: Trace = { phases: emptyPhases(), cert: null, stage: 'connecting', greeting: null };
  const where = hostPort(settings.host, settings.port);
  const facts = () => {
    const notes = [
      trace.greeting ? describeGreeting(trace.greeting) : null,
      trace.cert ? describeCertValidity(trace.cert, atMs) : null,
    ];
    const detail = notes.filter(Boolean).join('; ') || null;
    return { latency_ms: msSince(start), phases: trace.phases, cert: trace.cert, detail };
  };
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const error = await probe(settings, ctx, env, deadline, trace);
      return judged(atMs, facts(), error);
    },
    () =>
      judged(
        atMs,
        facts(),
        failure('timeout', `timed out after ${ctx.timeout_ms} ms waiting for ${trace.stage} (${where})`),
      ),
  );
}

async function probe(
  settings: SmtpSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: Trace,
): Promise<CheckError | null> {
  if (net.isIP(settings.host)) {
    const problem = checkAddress(settings.host, 'auto', ctx.allow_private_targets);
    if (problem) return problem;
  }
  const where = hostPort(settings.host, settings.port);
  const lap = lapTimer();
  const lookup = guardedLookup('auto', ctx.allow_private_targets);
  const implicit = settings.tls === 'implicit';
  let socket: net.Socket = implicit
    ? tls.connect({ host: settings.host, port: settings.port, lookup, ...tlsOptions(settings, env) })
    : net.connect({ host: settings.host, port: settings.port, lookup });
  deadline.onExpire(() => socket.destroy());
  const buffer = { text: '' };
  try {
    await connected(socket, trace, lap);
    if (implicit) {
      const problem = await handshake(socket as tls.TLSSocket, settings, trace, lap);
      if (problem) return problem;
    }
    trace.stage = 'the greeting';
    const greeting = (trace.greeting = await readReply(socket, buffer, where));
    trace.phases.ttfb_ms = lap();
    const refused = judgeGreeting(greeting);
    if (refused) return refused;
    trace.stage = 'the EHLO answer';
    const ehlo = await command(socket, buffer, where, `EHLO ${ehloName(socket)}`);
    const ehloProblem = judgeEhlo(ehlo);
    if (ehloProblem) return ehloProblem;
    if (settings.tls === 'starttls') {
      const notOffered = judgeStartTls(ehlo, null);
      if (notOffered) return notOffered;
      trace.stage = 'the STARTTLS answer';
      const refusedTls = judgeStartTls(ehlo, await command(socket, buffer, where, 'STARTTLS'));
      if (refusedTls) return refusedTls;
      lap();
      socket = tls.connect({ socket, ...tlsOptions(settings, env) });
      deadline.onExpire(() => socket.destroy());
      const problem = await handshake(socket as tls.TLSSocket, settings, trace, lap);
      if (problem) return problem;
      trace.stage = 'the EHLO answer';
      buffer.text = '';
      const again = judgeEhlo(await command(socket, buffer, where, `EHLO ${ehloName(socket)}`));
      if (again) return again;
    }
    await quit(socket, buffer, where);
    return null;
  } catch (err) {
    return describeSocketError(err, where);
  } finally {
    socket.destroy();
  }
}

function tlsOptions(settings: SmtpSettings, env: CheckerEnv): tls.ConnectionOptions {
  return {
    servername: net.isIP(settings.host) ? '' : settings.host,
    rejectUnauthorized: false,
    checkServerIdentity: skipNodeIdentityCheck,
    ...trustOptions(env),
  };
}

function connected(socket: net.Socket, trace: Trace, lap: () => number): Promise<void> {
  socket.once('lookup', () => {
    trace.phases.dns_ms = lap();
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      trace.phases.connect_ms = lap();
      resolve();
    });
  });
}

/** Waits for the handshake, then judges the certificate as the tls kind does. */
async function handshake(
  socket: tls.TLSSocket,
  settings: SmtpSettings,
  trace: Trace,
  lap: () => number,
): Promise<CheckError | null> {
  trace.stage = 'the TLS handshake';
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('secureConnect', () => resolve());
  });
  trace.phases.tls_ms = lap();
  trace.cert = certInfo(socket.getPeerCertificate());
  if (!trace.cert) return failure('tls', 'the server presented no certificate');
  return judgePeer(socket, settings.host, trace.cert, null, settings.tls_verify);
}

/**
 * RFC 5321 4.1.1.1: EHLO names the client by its domain or, without one, by an address literal;
 * ours is the local address of this connection (it names no host of ours the server could not see).
 */
function ehloName(socket: net.Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  return net.isIPv6(address) ? `[IPv6:${address}]` : `[${address}]`;
}

function command(socket: net.Socket, buffer: { text: string }, where: string, line: string): Promise<SmtpReply> {
  socket.write(`${line}\r\n`);
  return readReply(socket, buffer, where);
}

/** QUIT and its 221, waited for briefly: a server that hangs up at once is as good. */
async function quit(socket: net.Socket, buffer: { text: string }, where: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIT_WAIT_MS)));
  try {
    await Promise.race([
      command(socket, buffer, where, 'QUIT').then(
        () => undefined,
        () => undefined,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The next whole reply; rejects on garbage, a reply past 16 KB or a closed connection. */
function readReply(socket: net.Socket, buffer: { text: string }, where: string): Promise<SmtpReply> {
  return new Promise((resolve, reject) => {
    const settle = (fn: () => void) => {
      socket.off('data', onData);
      socket.off('end', onClose);
      socket.off('close', onClose);
      socket.off('error', onError);
      fn();
    };
    const take = () => {
      const got = takeReply(buffer.text);
      if (got === null) {
        if (buffer.text.length > REPLY_MAX_BYTES)
          settle(() => reject(new CheckFailure(failure('protocol', `${where} sent a reply longer than 16 KB`))));
        return;
      }
      if ('garbage' in got) {
        const said = clip(got.garbage.replace(/[^\x20-\x7e]/g, '?'));
        return settle(() => reject(new CheckFailure(failure('protocol', `${where} does not speak SMTP: "${said}"`))));
      }
      buffer.text = got.rest;
      settle(() => resolve(got.reply));
    };
    const onData = (chunk: Buffer) => {
      // latin1 keeps every byte as one character: lengths stay byte counts, garbage stays visible.
      buffer.text += chunk.toString('latin1');
      take();
    };
    const onClose = () =>
      settle(() => reject(new CheckFailure(failure('reset', `connection closed by ${where} before a reply`))));
    const onError = (err: Error) => settle(() => reject(err));
    socket.on('data', onData);
    socket.once('end', onClose);
    socket.once('close', onClose);
    socket.once('error', onError);
    take();
  });
}
