/**
 * smtp checks against smtp-server on 127.0.0.1: STARTTLS, implicit TLS and plain text, each
 * certificate failure, a server without STARTTLS, one that refuses us, one that never greets,
 * one that speaks something else, and one that is down. No mail is ever sent: the servers count
 * MAIL FROM and the test fails if one arrives.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { FakeClock } from '../../src/common/clock';
import { checkSmtp } from '../../src/probes/services/smtp';
import { runCheck } from '../../src/probes/checkers';
import { farmCerts, KeyAndCert } from '../../harness/servers/certs';
import { freePort, startTcpTarget, TcpTarget } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, makeSmtp, timedWithStall } from './factories';

interface Mta {
  port: number;
  /** Commands the server saw, in order (EHLO, STARTTLS, QUIT…). */
  commands: string[];
  close(): Promise<void>;
}

let mailFromSeen = 0;

async function startMta(opts: {
  cert?: KeyAndCert;
  implicit?: boolean;
  starttls?: boolean;
  banner?: string;
}): Promise<Mta> {
  const commands: string[] = [];
  const server = new SMTPServer({
    secure: Boolean(opts.implicit),
    key: opts.cert?.key,
    cert: opts.cert?.cert,
    disabledCommands: opts.starttls === false ? ['STARTTLS', 'AUTH'] : ['AUTH'],
    banner: opts.banner,
    logger: false,
    onConnect(_session, callback) {
      callback();
    },
    onMailFrom(_address, _session, callback) {
      mailFromSeen += 1;
      callback();
    },
  });
  server.on('error', () => undefined);
  // smtp-server has no hook per command; its connection's parsed commands are counted from the socket.
  server.server.on('connection', (socket) => {
    socket.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('latin1').split('\r\n')) {
        const word = /^[A-Z]{4,8}\b/.exec(line)?.[0];
        if (word) commands.push(word);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    commands,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const certs = farmCerts();
// Certificates are made against the real time, so this clock must read close to it.
const env = { ...makeEnv(certs.ca), clock: new FakeClock(Date.now()) };
const ctx = makeCtx({ timeout_ms: 2000 });
const servers: { close(): Promise<void> }[] = [];
async function mta(opts: Parameters<typeof startMta>[0]): Promise<Mta> {
  const m = await startMta(opts);
  servers.push(m);
  return m;
}
async function raw(onConnection: Parameters<typeof startTcpTarget>[0]): Promise<TcpTarget> {
  const t = await startTcpTarget(onConnection);
  servers.push(t);
  return t;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  // Not one check sent a mail, or even began to.
  expect(mailFromSeen).toBe(0);
});

describe('smtp check', () => {
  it('is up through STARTTLS, reporting the certificate and the phases', async () => {
    const server = await mta({ cert: certs.valid });
    const r = await runCheck('smtp', makeSmtp(server.port), ctx, env);
    expect(r.error).toBeNull();
    expect(r.outcome).toBe('up');
    expect(r.cert?.subject).toBe('localhost');
    expect(r.detail).toMatch(/^banner: 220 .*; certificate valid for \d+ days more/);
    for (const phase of ['connect_ms', 'tls_ms', 'ttfb_ms'] as const)
      expect(r.phases[phase]).toEqual(expect.any(Number));
    // What follows STARTTLS is encrypted: the plain-text test below sees the QUIT.
    expect(server.commands).toEqual(['EHLO', 'STARTTLS']);
  });

  it('is up with implicit TLS (465)', async () => {
    const server = await mta({ cert: certs.valid, implicit: true });
    const r = await checkSmtp(makeSmtp(server.port, { tls: 'implicit' }), ctx, env);
    expect(r.error).toBeNull();
    expect(r.cert).not.toBeNull();
  });

  it('is up in plain text with tls none, reports no certificate, and ends with QUIT', async () => {
    const server = await mta({ starttls: false });
    const r = await checkSmtp(makeSmtp(server.port, { tls: 'none' }), ctx, env);
    expect(r.error).toBeNull();
    expect(r.cert).toBeNull();
    expect(r.phases.tls_ms).toBeNull();
    expect(server.commands).toEqual(['EHLO', 'QUIT']);
  });

  it('fails with tls_required when STARTTLS is asked for and not offered', async () => {
    const server = await mta({ starttls: false });
    const r = await checkSmtp(makeSmtp(server.port), ctx, env);
    expect(r.error).toEqual({ code: 'tls_required', message: 'the server does not offer STARTTLS' });
  });

  it.each([
    ['expired', 'cert_expired'],
    ['selfSigned', 'cert_invalid'],
    ['wrongName', 'cert_invalid'],
  ] as const)('fails on an %s certificate with %s, and still reports it', async (leaf, code) => {
    const server = await mta({ cert: certs[leaf] });
    const r = await checkSmtp(makeSmtp(server.port), ctx, env);
    expect(r.error?.code).toBe(code);
    expect(r.cert).not.toBeNull();
  });

  it('accepts any certificate with tls_verify false, and still reports its expiry', async () => {
    const server = await mta({ cert: certs.expired, implicit: true });
    const r = await checkSmtp(makeSmtp(server.port, { tls: 'implicit', tls_verify: false }), ctx, env);
    expect(r.error).toBeNull();
    expect(r.detail).toMatch(/certificate expired/);
  });

  it('fails with banner when the server greets with 554', async () => {
    const t = await raw((s) => s.write('554 5.7.1 no service for you\r\n'));
    const r = await checkSmtp(makeSmtp(t.port, { tls: 'none' }), ctx, env);
    expect(r.error).toEqual({
      code: 'banner',
      message: 'the server greeted with 554 5.7.1 no service for you, not 220',
    });
  });

  it('fails with protocol when the server speaks something else', async () => {
    const t = await raw((s) => s.write('SSH-2.0-OpenSSH_9.2\r\n'));
    const r = await checkSmtp(makeSmtp(t.port, { tls: 'none' }), ctx, env);
    expect(r.error?.code).toBe('protocol');
    expect(r.error?.message).toContain('does not speak SMTP: "SSH-2.0-OpenSSH_9.2"');
  });

  it('fails with protocol on a greeting that never ends, having read at most 16 KB of it', async () => {
    const t = await raw((s) => {
      const line = `220-${'x'.repeat(1000)}\r\n`;
      for (let i = 0; i < 100; i++) s.write(line);
    });
    const r = await checkSmtp(makeSmtp(t.port, { tls: 'none' }), ctx, env);
    expect(r.error?.code).toBe('protocol');
    expect(r.error?.message).toContain('longer than 16 KB');
  });

  it('fails with reset when the server hangs up before greeting', async () => {
    const t = await raw((s) => s.end());
    const r = await checkSmtp(makeSmtp(t.port, { tls: 'none' }), ctx, env);
    expect(r.error?.code).toBe('reset');
  });

  it('fails with refused when nothing listens', async () => {
    const r = await checkSmtp(makeSmtp(await freePort(), { tls: 'none' }), ctx, env);
    expect(r.error?.code).toBe('refused');
  });

  it('fails with tls when implicit TLS meets a plain-text server', async () => {
    const server = await mta({ starttls: false });
    const r = await checkSmtp(makeSmtp(server.port, { tls: 'implicit' }), makeCtx({ timeout_ms: 1500 }), env);
    expect(r.error?.code).toBe('tls');
  });

  it('fails with private_target when private targets are not allowed', async () => {
    const r = await checkSmtp(makeSmtp(25), makeCtx({ allow_private_targets: false }), env);
    expect(r.error?.code).toBe('private_target');
  });

  it('is bounded by the timeout when the server never greets', async () => {
    const t = await raw(() => undefined);
    const {
      value: r,
      wallMs,
      stallMs,
    } = await timedWithStall(() => checkSmtp(makeSmtp(t.port, { tls: 'none' }), makeCtx({ timeout_ms: 500 }), env));
    expect(r.error).toEqual({
      code: 'timeout',
      message: `timed out after 500 ms waiting for the greeting (127.0.0.1:${t.port})`,
    });
    expect(wallMs).toBeLessThan(500 + 300 + stallMs);
  });
});
