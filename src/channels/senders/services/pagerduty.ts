/**
 * PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/):
 * POST /v2/enqueue with {routing_key, event_action, dedup_key, payload, links, client, client_url}.
 * An incident's lifecycle, keyed by the incident's id as dedup_key:
 *
 *   down          trigger (severity critical): one PagerDuty alert per incident
 *   up            resolve, same key
 *   acknowledged  acknowledge, same key (the owner acknowledged it here: PATCH /incidents/{id})
 *   reminder      nothing: the alert is still open and PagerDuty's escalation policy re-notifies
 *   slow, flapping, cert, notice   nothing: PagerDuty pages people; warnings belong on another channel
 *
 * The API takes one event per request, so a batch is one delivery making one call per incident
 * event, in order; the first failure stops it and the whole message is tried again, which is safe:
 * PagerDuty dedupes a trigger on an open alert's key, and resolving or acknowledging twice changes
 * nothing (https://developer.pagerduty.com/docs/events-api-v2/overview/#response-codes--retry-logic).
 * A test triggers an alert under a key of its own and resolves it at once.
 *
 * config: {routing_key (secret: the integration key of an "Events API v2" integration)}. The API
 * address is fixed (FARSIGHT_PAGERDUTY_API for the EU region, a proxy or a test receiver).
 */
import { systemClock } from '../../../common/clock';
import { toIso } from '../../../common/time';
import type {
  AlertEvent,
  ChannelSender,
  OutboundMessage,
  ParsedConfig,
  SendContext,
  SendResult,
} from '../../channel-kind';
import { clip, eventTitle, monitorLink, safeLink } from '../../messages';
import { callService } from './answers';
import { notAnObject, openConfig, parsed, tokenField } from './fields';

export interface PagerDutyConfig {
  routing_key: string;
}

/** Integration keys: 32 letters and digits. */
export const PAGERDUTY_KEY = /^[A-Za-z0-9]{32}$/;
const SUMMARY_MAX = 1024;

type Action = 'trigger' | 'resolve' | 'acknowledge';

function parsePagerDuty(raw: unknown): ParsedConfig<PagerDutyConfig> {
  const open = openConfig(raw, ['routing_key']);
  if (!open) return notAnObject();
  const { body, errors } = open;
  const key = tokenField(
    body,
    'routing_key',
    errors,
    PAGERDUTY_KEY,
    'an integration key: 32 letters and digits (Service → Integrations → Events API v2)',
  );
  return parsed(errors, { routing_key: key ?? '' });
}

function actionOf(e: AlertEvent): Action | null {
  if (e.incident_id === undefined) return null;
  if (e.type === 'down') return 'trigger';
  if (e.type === 'up') return 'resolve';
  if (e.type === 'acknowledged') return 'acknowledge';
  return null;
}

/** The Events API bodies for a message, in order (without the routing key). */
export function pagerDutyEvents(message: OutboundMessage, publicUrl: string, now: number): object[] {
  if (message.test) {
    const key = `farsight-test-${message.id}`;
    const summary = 'Farsight test: this PagerDuty channel works (resolved at once)';
    return [
      {
        event_action: 'trigger',
        dedup_key: key,
        payload: { summary, source: 'farsight', severity: 'info', timestamp: toIso(now) },
        client: 'Farsight',
        client_url: publicUrl,
      },
      { event_action: 'resolve', dedup_key: key },
    ];
  }
  const out: object[] = [];
  for (const e of message.events) {
    const action = actionOf(e);
    if (!action) continue;
    const dedup_key = String(e.incident_id);
    if (action !== 'trigger') {
      out.push({ event_action: action, dedup_key });
      continue;
    }
    const m = e.monitor;
    const links = m ? [{ href: monitorLink(publicUrl, m.id), text: 'Open in Farsight' }] : [];
    const runbook = safeLink(m?.runbook_url);
    if (runbook) links.push({ href: runbook, text: 'Runbook' });
    out.push({
      event_action: action,
      dedup_key,
      payload: {
        summary: clip(eventTitle(e), SUMMARY_MAX),
        source: m?.target ?? 'farsight',
        severity: 'critical',
        timestamp: toIso(e.at),
        ...(m ? { component: m.name, ...(m.group ? { group: m.group } : {}) } : {}),
        ...(e.error ? { class: e.error.code } : {}),
        custom_details: {
          message: e.message,
          ...(m ? { monitor_id: m.id, target: m.target } : {}),
          ...(e.error ? { error: e.error.message } : {}),
        },
      },
      links,
      client: 'Farsight',
      client_url: publicUrl,
    });
  }
  return out;
}

async function sendPagerDuty(config: PagerDutyConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const events = pagerDutyEvents(message, ctx.publicUrl, systemClock.now());
  let last: SendResult = { ok: true, provider: 'pagerduty', status: null, error: null, permanent: false };
  for (const [i, event] of events.entries()) {
    const body = JSON.stringify({ routing_key: config.routing_key, ...event });
    last = await callService(
      'pagerduty',
      { url: ctx.apis.pagerduty, body, headers: { 'Content-Type': 'application/json' }, secrets: [config.routing_key] },
      ctx,
    );
    if (!last.ok)
      return events.length > 1
        ? { ...last, error: `event ${i + 1} of ${events.length}: ${last.error ?? 'failed'}` }
        : last;
  }
  return last;
}

export const pagerDutySender: ChannelSender<PagerDutyConfig> = {
  kind: 'pagerduty',
  secrets: [{ path: 'routing_key' }],
  destination: [],
  parseConfig: parsePagerDuty,
  send: sendPagerDuty,
};
