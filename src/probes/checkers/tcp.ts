/**
 * tcp checks: connect, optionally send a line, optionally read the banner and judge its first
 * line (judge/banner). Phases: dns (lookup) and connect.
 */
import * as net from 'node:net';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, TcpSettings } from '../kinds';
import { BANNER_MAX_BYTES, bannerDecidable, firstLine, judgeBanner } from '../judge/banner';
import { clip } from '../judge/clip';
import { Deadline, lapTimer, msSince, withDeadline } from './deadline';
import type { CheckerEnv } from './env';
import { describeSocketError, hostPort } from './net-errors';
import { emptyPhases, failure, judged } from './result-builders';
import { checkAddress, guardedLookup } from './connect-address';

type Stage = 'connecting' | 'sending' | 'reading';

const STAGE_TEXT: Record<Stage, string> = {
  connecting: 'while connecting',
  sending: 'while sending',
  reading: 'waiting for the banner',
};

export async function checkTcp(settings: TcpSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const phases = emptyPhases();
  const progress = { stage: 'connecting' as Stage };
  const where = hostPort(settings.host, settings.port);
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const { error, detail } = await probe(settings, ctx, deadline, phases, progress);
      return judged(atMs, { latency_ms: msSince(start), phases, detail }, error);
    },
    () => {
      const error = failure('timeout', `timed out after ${ctx.timeout_ms} ms ${STAGE_TEXT[progress.stage]} (${where})`);
      return judged(atMs, { latency_ms: msSince(start), phases }, error);
    },
  );
}

async function probe(
  settings: TcpSettings,
  ctx: CheckContext,
  deadline: Deadline,
  phases: CheckResult['phases'],
  progress: { stage: Stage },
): Promise<{ error: CheckError | null; detail: string | null }> {
  if (net.isIP(settings.host)) {
    const problem = checkAddress(settings.host, settings.ip_version, ctx.allow_private_targets);
    if (problem) return { error: problem, detail: null };
  }
  const socket = net.connect({
    host: settings.host,
    port: settings.port,
    lookup: guardedLookup(settings.ip_version, ctx.allow_private_targets),
  });
  deadline.onExpire(() => socket.destroy());
  try {
    await connected(socket, phases);
    if (settings.send !== null) {
      progress.stage = 'sending';
      await write(socket, settings.send);
    }
    if (settings.expect_banner === null) return { error: null, detail: null };
    progress.stage = 'reading';
    const { text, closed } = await readBanner(socket, settings.expect_banner);
    const error = judgeBanner(settings.expect_banner, text, closed);
    return { error, detail: text === '' ? null : `banner: ${clip(firstLine(text))}` };
  } catch (err) {
    return { error: describeSocketError(err, hostPort(settings.host, settings.port)), detail: null };
  } finally {
    socket.destroy();
  }
}

function connected(socket: net.Socket, phases: CheckResult['phases']): Promise<void> {
  const lap = lapTimer();
  socket.once('lookup', () => {
    phases.dns_ms = lap();
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      phases.connect_ms = lap();
      resolve();
    });
  });
}

function write(socket: net.Socket, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** Reads until the first line can be judged, the server closes, or 4 KB arrived. */
function readBanner(socket: net.Socket, expected: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text = (text + chunk).slice(0, BANNER_MAX_BYTES);
      if (bannerDecidable(expected, text)) resolve({ text, closed: false });
    });
    socket.once('end', () => resolve({ text, closed: true }));
    socket.once('error', (err) => (text === '' ? reject(err) : resolve({ text, closed: true })));
  });
}
