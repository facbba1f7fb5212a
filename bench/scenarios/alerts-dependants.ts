/**
 * alerts --case dependants (issue 36, docs/dependencies.md): one parent with N dependants goes
 * Down, with the three channels of the alerts scenario (webhook, chat, SMTP). The parent and its
 * dependants are heartbeat monitors (confirm_after 1) on the built service; the parent is reported
 * failed first, then every dependant at once (keep-alive clients). Then half of the dependants
 * ping (they recover while the parent is down: no alert), and the parent pings: the other half,
 * still down, get incidents of their own.
 *   - the outage: messages per channel (one is the design: every dependant joins the parent's
 *     incident and folds into its down line), whether each names the parent and the count;
 *   - the recovery: messages per channel, and the events in them (the parent's up and one down per
 *     dependant still down);
 *   - incidents opened, and the service's CPU over each phase.
 */
import type { Options } from '../../harness/args';
import { BATCH_MS } from '../../src/channels/alert-rules';
import { startReceiver } from '../../harness/servers/receivers';
import { startSmtp } from '../../harness/servers/smtp-farm';
import { okCount, request, requestJson, runLoad } from '../../harness/http-client';
import { removeDir, tempDir } from '../../harness/paths';
import { CpuWindow } from '../../harness/proc';
import { atMost, metric, Metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, sleep } from '../scenario';
import { KeyPool, Service } from '../../harness/service';
import { alertMails, createChannels, failureUrls, KINDS } from './alerts';

const NAME = 'alerts';
const PARENT = 'bench-router';

interface WireEvent {
  type: string;
  monitor: { id: number; name: string } | null;
  message: string;
  affected?: { count: number };
}

export async function runDependants(o: Options, ctx: RunContext, started: number): Promise<ScenarioResult> {
  const n = o.number('monitors', ctx.smoke ? 20 : 1000);
  const concurrency = Math.max(1, o.number('concurrency', 16));
  const hook = await startReceiver();
  const chat = await startReceiver();
  const smtp = await startSmtp();
  const dir = tempDir(`${NAME}-dependants`);
  let service: Service | null = null;
  try {
    service = await Service.start({
      dataDir: dir,
      env: { FARSIGHT_SMTP: smtp.url, FARSIGHT_MAIL_FROM: 'Farsight <alerts@bench.test>' },
    });
    const svc = service;
    const api = `${svc.url}/api/v1`;
    const keys = await svc.adminKeys(KeyPool.sizeFor(n + 200));
    await createChannels(api, keys, hook, chat);
    log(NAME, `creating the parent and ${n} heartbeat monitors that depend on it`);
    const beat = (i: number | null) => ({
      name: i === null ? 'bench router' : `bench service ${i}`,
      slug: i === null ? PARENT : `bench-service-${i}`,
      kind: 'heartbeat',
      interval_s: 86_400,
      confirm_after: 1,
      heartbeat: { grace_s: 3600 },
      depends_on: i === null ? [] : [`slug:${PARENT}`],
    });
    await svc.createMonitors(keys, [beat(null)]);
    await svc.createMonitors(
      keys,
      Array.from({ length: n }, (_, i) => beat(i + 1)),
    );
    const urls = await failureUrls(svc, keys);
    const parentId = (
      await requestJson<{ id: number }>('GET', `${api}/monitors/slug:${PARENT}`, { headers: keys.header() })
    ).id;
    const parent = urls.find((u) => u.id === parentId)!;
    const children = urls.filter((u) => u.id !== parentId);
    if (children.length !== n) throw new Error(`expected ${n} dependants, found ${children.length}`);
    const send = async (targets: { url: string }[], ping: boolean) => {
      const load = await runLoad({
        concurrency,
        requests: targets.length,
        task: (i, agent) =>
          request('POST', ping ? targets[i].url.replace(/\/fail$/, '') : targets[i].url, {
            body: 'bench',
            headers: { 'Content-Type': 'text/plain' },
            agent,
            timeoutMs: 30_000,
          }),
      });
      if (okCount(load) !== targets.length) throw new Error(`reports refused: ${JSON.stringify(load.statuses)}`);
      return load.elapsedMs;
    };
    /** Waits one batching window and a little, then for the receivers to be quiet for 2 s. */
    const settle = async () => {
      await sleep(BATCH_MS + 3000);
      let last = -1;
      while (last !== total()) {
        last = total();
        await sleep(2000);
      }
    };
    const total = () => hook.received.length + chat.received.length + alertMails(smtp).length;
    const counts = () => ({
      webhook: hook.received.length,
      chat: chat.received.length,
      email: alertMails(smtp).length,
    });

    log(NAME, `the parent fails, then its ${n} dependants at once`);
    const cpu = new CpuWindow(svc.pid);
    await send([parent], false);
    const failMs = await send(children, false);
    await settle();
    const downCpu = cpu.read();
    const afterDown = counts();
    const downHooks = hook.received.map(eventsOf);
    const downChat = chat.received.map((r) => r.body.toString('utf8'));
    const downMail = alertMails(smtp).map((m) => m.raw);
    const incidentsDown = await openIncidents(api, keys);

    const half = Math.floor(n / 2);
    log(NAME, `${half} dependants recover while the parent is down; then the parent recovers`);
    const cpu2 = new CpuWindow(svc.pid);
    await send(children.slice(0, half), true);
    await sleep(1500);
    await send([parent], true);
    await settle();
    const upCpu = cpu2.read();
    const upHooks = hook.received.slice(afterDown.webhook).map(eventsOf);
    const upEvents = upHooks.flat();
    const incidentsUp = await openIncidents(api, keys);
    await svc.stop();
    service = null;

    const named = (text: string) => text.includes('bench router') && /1,000 monitors|\b\d[\d,]* monitors/.test(text);
    const countText = n.toLocaleString('en-US');
    const metrics: Metric[] = [
      metric('dependants of the one parent', n, ''),
      metric('failure reports of the dependants answered in', failMs, 'ms'),
      metric('outage: incidents open (the parent’s only)', incidentsDown, '', atMost(1)),
      ...KINDS.map((k) => metric(`outage: ${k} messages`, afterDown[k], '', atMost(1))),
      metric('outage: webhook events', downHooks.flat().length, ''),
      metric(
        'outage: affected count the webhook names',
        downHooks.flat().reduce((a, e) => a + (e.affected?.count ?? 0), 0),
        '',
      ),
      metric(
        'outage: chat messages naming the parent and the count',
        downChat.filter((t) => named(t) && t.includes(countText)).length,
        '',
      ),
      metric(
        'outage: emails naming the parent and the count',
        downMail.filter((t) => named(t) && t.includes(countText)).length,
        '',
      ),
      metric('outage: service CPU (reports, joins, one message per channel)', downCpu.cpuMs, 'ms'),
      metric('recovery: dependants still down when the parent recovered', n - half, ''),
      ...KINDS.map((k) => metric(`recovery: ${k} messages`, counts()[k] - afterDown[k], '')),
      metric('recovery: webhook up events', upEvents.filter((e) => e.type === 'up').length, ''),
      metric(
        'recovery: webhook down events (dependants still down)',
        upEvents.filter((e) => e.type === 'down').length,
        '',
      ),
      metric('recovery: incidents open after it', incidentsUp, ''),
      metric('recovery: service CPU', upCpu.cpuMs, 'ms'),
    ];
    const notes = [
      `outage: webhook messages carried ${downHooks.map((m) => m.length).join(' + ') || 'nothing'} event(s); first line: ${downHooks[0]?.[0]?.message.slice(0, 160) ?? '-'}`,
      `recovery: webhook messages carried ${upHooks.map((m) => m.length).join(' + ') || 'nothing'} event(s) (a message holds what a 20 s batch gathered)`,
      'the parent and its dependants are heartbeat monitors reported failed through POST /hb/<token>/fail (confirm_after 1); the dependants that recover first ping POST /hb/<token>',
    ];
    return {
      scenario: NAME,
      options: { case: 'dependants', monitors: n, concurrency },
      metrics,
      notes,
      elapsedS: elapsedS(started),
    };
  } finally {
    if (service) await service.stop();
    await Promise.all([hook.close(), chat.close(), smtp.close()]);
    if (ctx.keep) log(NAME, `kept ${dir}`);
    else removeDir(dir);
  }
}

function eventsOf(r: { body: Buffer }): WireEvent[] {
  try {
    return (JSON.parse(r.body.toString('utf8')) as { events?: WireEvent[] }).events ?? [];
  } catch {
    return [];
  }
}

async function openIncidents(api: string, keys: KeyPool): Promise<number> {
  let count = 0;
  let before: string | number | null = null;
  do {
    const page: { items: unknown[]; next_cursor: string | number | null } = await requestJson(
      'GET',
      `${api}/incidents?state=open&limit=500${before === null ? '' : `&before=${before}`}`,
      { headers: keys.header() },
    );
    count += page.items.length;
    before = page.next_cursor;
  } while (before !== null);
  return count;
}
