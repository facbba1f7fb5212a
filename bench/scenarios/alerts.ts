/**
 * alerts: N heartbeat monitors go Down at once with eleven channels on loopback: a webhook
 * receiver, a chat receiver (format slack), an SMTP server (smtp-server, the service's
 * FARSIGHT_SMTP) and the eight push and paging services on one server emulating their APIs
 * (alerts-services.ts). Every monitor is reported failed once (`POST /hb/<token>/fail`, confirm_after 1,
 * keep-alive clients), and the harness waits until every channel has had a message about every
 * monitor and the delivery log shows them.
 *   - messages per channel against the 20 s windows the Downs spanned (the design's rule, docs/alerts.md: one
 *     batched message per channel per 20 s window, not one per monitor);
 *   - events per message; delay from a fail's acknowledgement to the receipt of the message that
 *     carries it (about the 20 s batching window plus a little, by design);
 *   - the service's CPU over the burst, in phases, and its RSS before, at the peak and after;
 *   - the delivery log's ok rows, and no message received twice.
 * Which monitors a message carried: the webhook body lists them; an email's Message-ID names its
 * outbox message, whose delivery row lists them; a chat message (which names only the first
 * events and counts the rest) is matched to its delivery row by the monitor links it shows.
 */
import type { Options } from '../../harness/args';
import { BATCH_MS } from '../../src/channels/alert-rules';
import { startReceiver, Received, Receiver } from '../../harness/servers/receivers';
import { headersOf, ReceivedMail, SmtpServer, startSmtp } from '../../harness/servers/smtp-farm';
import { okCount, request, requestJson, runLoad } from '../../harness/http-client';
import { removeDir, tempDir } from '../../harness/paths';
import { CpuUse, CpuWindow, memory, RssSampler } from '../../harness/proc';
import { monotonicUs, ProfileWindow } from '../profile';
import { atMost, metric, Metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario, sleep, wait } from '../scenario';
import { KeyPool, Service } from '../../harness/service';
import { profileDir, profileNotes } from '../service-profile';
import { spread } from '../../harness/stats';
import {
  createServiceChannels,
  serviceApiEnv,
  serviceMetrics,
  servicesDone,
  startServiceApis,
} from './alerts-services';
import { runDependants } from './alerts-dependants';

const NAME = 'alerts';
const MB = 1024 * 1024;
/** How long to wait past the batching window for the last message (a failed send is retried after 30 s). */
const WAIT_PAST_WINDOW_MS = 60_000;
const WEBHOOK_SECRET = 'bench-webhook-secret-0123456789abcdef';
export const KINDS = ['webhook', 'chat', 'email'] as const;
const ALERT_TO = 'ops@bench.test';
type Kind = (typeof KINDS)[number];

interface Delivery {
  id: number;
  channel_id: number | null;
  ok: boolean;
  outbox_id: number | null;
  monitor_ids: number[] | null;
  error: string | null;
}

/** One message as a receiver got it, with the monitors it was about. */
interface Got {
  at: number;
  /** The outbox message (webhook X-Service-Message-Id, email Message-ID), null for chat. */
  messageId: string | null;
  monitors: number[];
  /** Monitors the text itself names (chat: the first events; the rest are counted). */
  named: number;
}

export const alertsScenario: Scenario = {
  name: NAME,
  summary:
    'N heartbeat monitors Down at once, 11 channels (webhook, chat, SMTP, ntfy, Gotify, Telegram, Pushover, Matrix, PagerDuty, Home Assistant, Apprise): messages per 20 s window, 0 lost, 0 twice, fail-to-delivery p99, CPU and RSS of the burst',
  options: ['monitors', 'concurrency', 'case'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    // --case dependants: one parent with N dependants (issue 36, alerts-dependants.ts).
    const which = o.string('case', 'storm');
    if (which === 'dependants') return runDependants(o, ctx, started);
    if (which !== 'storm') throw new Error(`--case is storm (the default) or dependants, not ${which}`);
    const n = o.number('monitors', ctx.smoke ? 20 : 1000);
    const concurrency = Math.max(1, o.number('concurrency', 16));
    const idleS = ctx.smoke ? 1 : 5;
    const notes: string[] = [];

    const hook = await startReceiver();
    const chat = await startReceiver();
    const smtp = await startSmtp();
    const apis = await startServiceApis();
    const dir = tempDir(NAME);
    const prof = profileDir(ctx, NAME);
    let service: Service | null = null;
    let window: ProfileWindow | undefined;
    let rss: RssSampler | null = null;
    let watch: BurstWatch | null = null;
    try {
      service = await Service.start({
        dataDir: dir,
        profileDir: prof,
        env: {
          FARSIGHT_SMTP: smtp.url,
          FARSIGHT_MAIL_FROM: 'Farsight <alerts@bench.test>',
          ...serviceApiEnv(apis.origin),
        },
      });
      const svc = service;
      const api = `${svc.url}/api/v1`;
      const keys = await svc.adminKeys(KeyPool.sizeFor(n + 200));
      const channelIds = await createChannels(api, keys, hook, chat);
      const serviceIds = await createServiceChannels(api, keys, apis);
      log(NAME, `creating ${n} heartbeat monitors and their failure URLs (data ${dir})`);
      await svc.createMonitors(keys, downMonitors(n));
      const failUrls = await failureUrls(svc, keys);
      if (failUrls.length !== n) throw new Error(`expected ${n} heartbeat monitors, found ${failUrls.length}`);

      log(NAME, `idle for ${idleS} s`);
      const idle = new CpuWindow(svc.pid);
      await wait(NAME, 'idle', idleS * 1000);
      const idleCpu = idle.read();

      log(NAME, `${n} monitors fail at once (${concurrency} keep-alive clients)`);
      const rssBefore = memory(svc.pid).rss;
      rss = new RssSampler(svc.pid, 200);
      const harness = new CpuWindow(process.pid);
      const fromUs = monotonicUs();
      const cpu = new CpuWindow(svc.pid);
      watch = new BurstWatch(cpu, `${svc.url}/api/health`);
      const acked = new Map<number, number>();
      const load = await runLoad({
        concurrency,
        requests: n,
        task: async (i, agent) => {
          const a = await request('POST', failUrls[i].url, {
            body: 'bench: burst',
            headers: { 'Content-Type': 'text/plain' },
            agent,
            timeoutMs: 30_000,
          });
          if (a.status === 200) acked.set(failUrls[i].id, Date.now());
          return a;
        },
      });
      const failsCpu = cpu.read();
      if (okCount(load) !== n)
        throw new Error(`failure reports were refused: ${JSON.stringify(load.statuses)} ${load.firstError}`);
      const ackTimes = [...acked.values()];
      const firstAck = ackTimes.reduce((a, b) => Math.min(a, b), Infinity);
      const lastAck = ackTimes.reduce((a, b) => Math.max(a, b), -Infinity);

      log(
        NAME,
        `all ${n} failures answered in ${Math.round(load.elapsedMs)} ms; waiting for the messages (the batching window is ${BATCH_MS / 1000} s)`,
      );
      const deadline = lastAck + BATCH_MS + WAIT_PAST_WINDOW_MS;
      let firstMessageCpu: CpuUse | null = null;
      const hookIds = new Set<number>();
      let hookRead = 0;
      for (;;) {
        if (firstMessageCpu === null && (hook.received.length || chat.received.length || alertMails(smtp).length))
          firstMessageCpu = cpu.read();
        for (; hookRead < hook.received.length; hookRead++)
          for (const id of webhookMonitors(hook.received[hookRead])) hookIds.add(id);
        const m = hook.received.length;
        if (hookIds.size >= n && chat.received.length >= m && alertMails(smtp).length >= m) break;
        if (Date.now() > deadline) break;
        await sleep(25);
      }
      // The dispatcher records each attempt after the receiver answered: wait for the log to show every message.
      let deliveries = await allDeliveries(api, keys);
      while (
        !(logged(deliveries, channelIds, hook, chat, smtp) && servicesDone(apis, deliveries, serviceIds, n)) &&
        Date.now() <= deadline
      ) {
        await sleep(250);
        deliveries = await allDeliveries(api, keys);
      }
      const burstCpu = cpu.read();
      const harnessCpu = harness.read();
      window = { fromUs, toUs: monotonicUs() };
      watch.stop();
      rss.stop();
      const rssAfter = memory(svc.pid).rss;
      const timedOut = Date.now() > deadline;
      if (timedOut)
        notes.push(
          `gave up waiting ${Math.round((BATCH_MS + WAIT_PAST_WINDOW_MS) / 1000)} s after the last failure: figures below are what had arrived`,
        );

      const got: Record<Kind, Got[]> = {
        webhook: hook.received.map((r) => ({
          at: r.at,
          messageId: headerOf(r, 'x-service-message-id'),
          monitors: webhookMonitors(r),
          named: webhookMonitors(r).length,
        })),
        chat: chatMessages(
          chat.received,
          deliveries.filter((d) => d.ok && d.channel_id === channelIds.chat),
        ),
        email: alertMails(smtp).map((m) => emailMessage(m, deliveries)),
      };

      // Delay per channel and monitor: the first message carrying the monitor − its fail's acknowledgement.
      const delays: Record<Kind, number[]> = { webhook: [], chat: [], email: [] };
      let missing = 0;
      for (const kind of KINDS) {
        const first = new Map<number, number>();
        for (const g of got[kind])
          for (const id of g.monitors) if (!first.has(id) || g.at < (first.get(id) as number)) first.set(id, g.at);
        for (const [id, ackAt] of acked) {
          const at = first.get(id);
          if (at === undefined) missing += 1;
          else delays[kind].push(at - ackAt);
        }
      }
      const all = spread(KINDS.flatMap((k) => delays[k]));
      const spanMs = lastAck - firstAck;
      const windows = Math.floor(spanMs / BATCH_MS) + 1;
      const twice =
        repeats(got.webhook.map((g) => g.messageId)) +
        repeats(got.email.map((g) => g.messageId)) +
        Math.max(0, got.chat.length - deliveries.filter((d) => d.ok && d.channel_id === channelIds.chat).length);
      const services = serviceMetrics(apis, deliveries, serviceIds, [...acked.keys()], windows);
      const ours = deliveries.filter((d) => d.channel_id !== null && Object.values(channelIds).includes(d.channel_id));
      const okRows = ours.filter((d) => d.ok);
      const failedRows = ours.filter((d) => !d.ok);
      const failsAck = spread(load.latencies);
      const health = spread(watch.health);
      const idleMsOver = (wallMs: number) => (idleCpu.pctOfCore / 100) * wallMs;

      await svc.stop();
      service = null;

      const metrics: Metric[] = [
        metric('monitors going Down at once', n, ''),
        metric('failure reports: all answered in', load.elapsedMs, 'ms'),
        metric('failure report answer time p99', failsAck.p99, 'ms'),
        metric(`${BATCH_MS / 1000} s windows the Downs spanned`, windows, ''),
      ];
      for (const kind of KINDS) {
        metrics.push(
          metric(`${kind}: messages received`, got[kind].length, '', atMost(windows)),
          metric(
            `${kind}: events in the largest message`,
            got[kind].length ? Math.max(...got[kind].map((g) => g.monitors.length)) : null,
            '',
          ),
        );
        if (kind === 'chat')
          metrics.push(
            metric(
              'chat: events named in its text (the rest counted)',
              got.chat.length ? Math.max(...got.chat.map((g) => g.named)) : null,
              '',
            ),
          );
        const d = spread(delays[kind]);
        metrics.push(
          metric(`${kind}: delay failure answered → message received p50`, d.p50, 'ms'),
          metric(`${kind}: delay failure answered → message received p99`, d.p99, 'ms'),
        );
      }
      metrics.push(
        metric('delay failure answered → message received p50 (all channels)', all.p50, 'ms'),
        metric('delay failure answered → message received p99 (all channels)', all.p99, 'ms'),
        metric('delay failure answered → message received max (all channels)', all.max, 'ms'),
        metric('Downs that did not reach a channel (monitor × channel)', missing, '', atMost(0)),
        metric('messages received twice', twice, '', atMost(0)),
        ...services.metrics,
        metric('delivery log: ok rows', okRows.length, ''),
        metric('delivery log: failed attempts', failedRows.length, '', atMost(0)),
        metric('CPU of the service idle (before)', idleCpu.pctOfCore, '% of a core'),
        metric('CPU during the failure reports', failsCpu.cpuMs, 'ms'),
        metric('  as % of a core over their wall time', failsCpu.pctOfCore, '% of a core'),
        metric(
          'CPU from the last report to the first message',
          firstMessageCpu ? firstMessageCpu.cpuMs - failsCpu.cpuMs : null,
          'ms',
        ),
        metric(
          'CPU from the first message to the last delivery row',
          firstMessageCpu ? burstCpu.cpuMs - firstMessageCpu.cpuMs : null,
          'ms',
        ),
        metric('CPU of the whole burst', burstCpu.cpuMs, 'ms'),
        metric('  on the main thread', burstCpu.mainMs, 'ms'),
        metric('  above idle', burstCpu.cpuMs - idleMsOver(burstCpu.wallMs), 'ms'),
        metric('  per Down (above idle)', (burstCpu.cpuMs - idleMsOver(burstCpu.wallMs)) / n, 'ms'),
        metric('  wall time of the burst', burstCpu.wallMs, 'ms'),
        metric('GET /api/health during the burst p50', health.p50, 'ms'),
        metric('GET /api/health during the burst max', health.max, 'ms'),
        metric('RSS before the burst', rssBefore / MB, 'MB'),
        metric('RSS peak during the burst', rss.max / MB, 'MB'),
        metric('RSS after the burst', rssAfter / MB, 'MB'),
        metric('harness CPU over the burst (reports, receivers)', harnessCpu.cpuMs, 'ms'),
      );
      notes.push(
        `${n} heartbeat monitors (confirm_after 1) each reported failed once through POST /hb/<token>/fail by ${concurrency} keep-alive clients; the reports spanned ${Math.round(spanMs)} ms, so at most ${windows} message(s) per channel are expected`,
        `messages per channel: ${KINDS.map((k) => `${k} ${got[k].length} (events ${got[k].map((g) => g.monitors.length).join(' + ') || 'none'})`).join('; ')}`,
        `delay = receipt of the first message carrying the monitor − the acknowledgement of its failure report (both on this machine's clock): by design about the ${BATCH_MS / 1000} s batching window plus a little (the writer's flush, the send); the first Downs of a window wait longest`,
        `burst = from the first failure report until every channel had every monitor and the delivery log showed every message received (${Math.round(burstCpu.wallMs)} ms, mostly the batching window, idle); RSS sampled every 200 ms; GET /api/health sent every 250 ms meanwhile (one at a time) to see whether the service stays responsive`,
        `service CPU per second of the burst, ms: ${watch.cpuPerSecond.map((v) => Math.round(v)).join(' ')}`,
        `delivery log: ${okRows.length} ok rows (${KINDS.map((k) => `${k} ${okRows.filter((d) => d.channel_id === channelIds[k]).length}`).join(', ')}), ${failedRows.length} failed${failedRows.length ? `, e.g. ${failedRows[0].error}` : ''}`,
        'receivers and the failure reports run in the harness process; on 2 cores they compete with the service',
        ...services.notes,
      );
      notes.push(...profileNotes(prof, window));
      return { scenario: NAME, options: { monitors: n, concurrency }, metrics, notes, elapsedS: elapsedS(started) };
    } finally {
      rss?.stop();
      watch?.stop();
      if (service) await service.stop();
      await Promise.all([hook.close(), chat.close(), smtp.close(), apis.close()]);
      if (ctx.keep) log(NAME, `kept ${dir}`);
      else removeDir(dir);
    }
  },
};

/** During the burst: the service's CPU per second, and GET /api/health answer times (one probe at a time, every 250 ms). */
class BurstWatch {
  readonly cpuPerSecond: number[] = [];
  readonly health: number[] = [];
  private lastCpuMs = 0;
  private probing = false;
  private readonly timers: NodeJS.Timeout[];

  constructor(
    private readonly cpu: CpuWindow,
    private readonly healthUrl: string,
  ) {
    this.timers = [setInterval(() => this.second(), 1000), setInterval(() => this.probe(), 250)];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
  }

  private second(): void {
    try {
      const now = this.cpu.read().cpuMs;
      this.cpuPerSecond.push(now - this.lastCpuMs);
      this.lastCpuMs = now;
    } catch {
      // the service has exited
    }
  }

  private probe(): void {
    if (this.probing) return;
    this.probing = true;
    request('GET', this.healthUrl, { timeoutMs: 30_000 })
      .then((a) => {
        if (a.status === 200) this.health.push(a.ms);
      })
      .catch(() => undefined)
      .finally(() => {
        this.probing = false;
      });
  }
}

/** Heartbeat monitors that go Down on their first failure report and miss no deadline during the run. */
function downMonitors(n: number): object[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `bench job ${i}`,
    slug: `bench-job-${i}`,
    kind: 'heartbeat',
    interval_s: 86_400,
    confirm_after: 1,
    heartbeat: { grace_s: 3600 },
  }));
}

export async function createChannels(
  api: string,
  keys: KeyPool,
  hook: Receiver,
  chat: Receiver,
): Promise<Record<Kind, number>> {
  const create = async (body: object): Promise<number> =>
    (await requestJson<{ id: number }>('POST', `${api}/channels`, { headers: keys.header(), body })).id;
  return {
    webhook: await create({
      kind: 'webhook',
      name: 'bench webhook',
      config: { url: `${hook.origin}/hook`, secret: WEBHOOK_SECRET, headers: [] },
    }),
    // A loopback URL is no Slack host: the format is set, so the body has Slack's shape.
    chat: await create({
      kind: 'chat',
      name: 'bench chat',
      config: { url: `${chat.origin}/services/T0000/B0000/bench`, format: 'slack' },
    }),
    email: await create({ kind: 'email', name: 'bench email', config: { to: [ALERT_TO] } }),
  };
}

/** Bulk does not answer tokens: each heartbeat monitor gets a new one (POST /monitors/{id}/heartbeat-token). */
export async function failureUrls(svc: Service, keys: KeyPool): Promise<{ id: number; url: string }[]> {
  const ids = await svc.monitorIds(keys, 'heartbeat');
  const out: { id: number; url: string }[] = new Array(ids.length);
  const load = await runLoad({
    concurrency: 8,
    requests: ids.length,
    task: async (i, agent) => {
      const a = await request('POST', `${svc.url}/api/v1/monitors/${ids[i]}/heartbeat-token`, {
        headers: keys.header(),
        body: {},
        agent,
      });
      if (a.status === 200 || a.status === 201)
        out[i] = {
          id: ids[i],
          url: `${svc.url}${new URL((JSON.parse(a.body) as { heartbeat_url: string }).heartbeat_url).pathname}/fail`,
        };
      return a;
    },
  });
  if (okCount(load) !== ids.length)
    throw new Error(`new heartbeat tokens were refused: ${JSON.stringify(load.statuses)} ${load.firstError}`);
  return out;
}

/** Every row of the delivery log (newest first), following next_cursor. */
async function allDeliveries(api: string, keys: KeyPool): Promise<Delivery[]> {
  const rows: Delivery[] = [];
  let before: string | number | null = null;
  do {
    const page: { items: Delivery[]; next_cursor: string | number | null } = await requestJson(
      'GET',
      `${api}/deliveries?limit=500${before === null ? '' : `&before=${before}`}`,
      { headers: keys.header() },
    );
    rows.push(...page.items);
    before = page.next_cursor;
  } while (before !== null);
  return rows;
}

/** The log holds an ok row for every message each receiver got. */
function logged(
  deliveries: Delivery[],
  channelIds: Record<Kind, number>,
  hook: Receiver,
  chat: Receiver,
  smtp: SmtpServer,
): boolean {
  const ok = (kind: Kind) => deliveries.filter((d) => d.ok && d.channel_id === channelIds[kind]).length;
  return (
    ok('webhook') >= hook.received.length &&
    ok('chat') >= chat.received.length &&
    ok('email') >= alertMails(smtp).length
  );
}

function headerOf(r: Received, name: string): string | null {
  const v = r.headers[name];
  return typeof v === 'string' ? v : null;
}

/** Monitor ids of a webhook body's events (notices have no monitor). */
function webhookMonitors(r: Received): number[] {
  try {
    const body = JSON.parse(r.body.toString('utf8')) as { events?: { monitor: { id: number } | null }[] };
    return (body.events ?? []).flatMap((e) => (e.monitor ? [e.monitor.id] : []));
  } catch {
    return [];
  }
}

/** The alert emails: to the channel's address (the owner's sign-in notice of the setup goes to the owner). */
export function alertMails(smtp: SmtpServer): ReceivedMail[] {
  return smtp.mails.filter((m) => m.to.includes(ALERT_TO));
}

/** An email's monitors: its Message-ID `<alert.farsight-alert-<outbox id>@host>` names the outbox message. */
function emailMessage(m: ReceivedMail, deliveries: Delivery[]): Got {
  const messageId = headersOf(m.raw).get('message-id') ?? null;
  const outboxId = Number(/farsight-alert-(\d+)@/.exec(messageId ?? '')?.[1] ?? NaN);
  const row = deliveries.find((d) => d.ok && d.outbox_id === outboxId);
  return { at: m.at, messageId, monitors: row?.monitor_ids ?? [], named: 0 };
}

/**
 * Chat messages with their monitors: the text links the first events' monitors (`/monitors/<id>`);
 * each message is the delivery row whose monitor ids hold all of them (rows taken once, oldest first).
 */
function chatMessages(received: Received[], rows: Delivery[]): Got[] {
  const free = [...rows].sort((a, b) => a.id - b.id);
  return received.map((r) => {
    let text = '';
    try {
      text = String((JSON.parse(r.body.toString('utf8')) as { text?: unknown }).text ?? '');
    } catch {
      // not JSON: no monitors named
    }
    const named = [...new Set([...text.matchAll(/\/monitors\/(\d+)/g)].map((m) => Number(m[1])))];
    const i = free.findIndex((d) => named.every((id) => d.monitor_ids?.includes(id)));
    const row = i >= 0 ? free.splice(i, 1)[0] : undefined;
    return { at: r.at, messageId: null, monitors: row?.monitor_ids ?? [], named: named.length };
  });
}

/** How many values repeat an earlier one (nulls ignored). */
function repeats(values: (string | null)[]): number {
  const present = values.filter((v): v is string => v !== null);
  return present.length - new Set(present).size;
}
