/**
 * The alert services' HTTP APIs on loopback, written from each service's public documentation
 * (the page is cited at each handler): one server answering every one of them by path, checking
 * methods, auth headers and body fields the way the service does, keeping what each accepted, and
 * told to fail the next requests the way the service fails (its rate-limit answer, its permanent
 * refusal, a 200 carrying an error, a proxy's HTML page, a redirect, an answer lost after the
 * message was taken). For the sender tests and the alert-storm benchmark.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Service =
  'ntfy' | 'gotify' | 'telegram' | 'pushover' | 'matrix' | 'pagerduty' | 'home-assistant' | 'apprise';
export type Failure = 'rate-limit' | 'refuse' | 'ok-error' | 'html' | 'redirect' | 'lost-answer';

/** The credentials the emulated services accept (shaped as each service issues them). */
export const CREDENTIALS = {
  ntfyToken: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz9',
  gotifyToken: 'AaBbCcDd.Ee-F_1',
  telegramToken: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1',
  telegramChat: '-1001234567890',
  pushoverUser: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  pushoverApp: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
  matrixToken: 'syt_ZmFyc2lnaHQ_bXlzZWNyZXR0b2tlbg_0abcde',
  matrixRoom: '!alerts:matrix.test',
  pagerdutyKey: 'R0123456789abcdefghijklmnopqrstu',
  haToken: 'eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJmYXJzaWdodCJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ',
  haService: 'notify.mobile_app_phone',
  appriseKey: 'k3y-apprise-7f3a9c1e',
} as const;

export interface Accepted {
  service: Service;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ServiceApis {
  origin: string;
  /** Every request, as it came (also the refused ones). */
  requests: { service: Service; method: string; path: string; headers: http.IncomingHttpHeaders; raw: string }[];
  /** What each service took as a message (Matrix: once per transaction id). */
  accepted: Accepted[];
  /** PagerDuty's alerts by dedup_key: their state and how many triggers each got. */
  pagerduty: Map<string, { status: 'triggered' | 'acknowledged' | 'resolved'; triggers: number }>;
  /** The next `count` requests to `service` fail this way. */
  failNext(service: Service, failure: Failure, count?: number): void;
  of(service: Service): Accepted[];
  close(): Promise<void>;
}

type Answer = { status: number; body: string; type?: string };
const json = (status: number, body: unknown): Answer => ({ status, body: JSON.stringify(body) });

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>';

export async function startServiceApis(): Promise<ServiceApis> {
  const requests: ServiceApis['requests'] = [];
  const accepted: Accepted[] = [];
  const failures = new Map<Service, Failure[]>();
  const pagerduty: ServiceApis['pagerduty'] = new Map();
  const matrixTxns = new Map<string, string>();
  const sockets = new Set<Socket>();
  let seq = 0;

  const serviceOf = (path: string): Service | null => {
    if (path.startsWith('/ntfy')) return 'ntfy';
    if (path.startsWith('/gotify/')) return 'gotify';
    if (path.startsWith('/bot')) return 'telegram';
    if (path.startsWith('/1/messages.json')) return 'pushover';
    if (path.startsWith('/_matrix/')) return 'matrix';
    if (path.startsWith('/v2/enqueue')) return 'pagerduty';
    if (path.startsWith('/api/services/')) return 'home-assistant';
    if (path.startsWith('/notify/')) return 'apprise';
    return null;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? '';
      const path = req.url ?? '/';
      const raw = Buffer.concat(chunks).toString('utf8');
      const service = serviceOf(path);
      if (!service) return void res.writeHead(404).end('no such API');
      requests.push({ service, method, path, headers: req.headers, raw });
      const failure = failures.get(service)?.shift();
      if (failure === 'html') return void res.writeHead(502, { 'Content-Type': 'text/html' }).end(HTML_PAGE);
      if (failure === 'redirect') return void res.writeHead(302, { Location: '/elsewhere' }).end();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return void send(res, json(400, { error: 'the body is not JSON' }));
      }
      const take = (): void => void accepted.push({ service, method, path, headers: req.headers, body });
      const answer = HANDLERS[service]({ method, path, headers: req.headers, body, failure, take });
      if (failure === 'lost-answer') {
        // The message was taken, then the connection dropped before the answer: the sender retries.
        return void res.socket?.destroy();
      }
      send(res, answer);
    });
  });

  interface Call {
    method: string;
    path: string;
    headers: http.IncomingHttpHeaders;
    body: Record<string, unknown>;
    failure: Failure | undefined;
    take(): void;
  }
  const bearer = (h: http.IncomingHttpHeaders): string => String(h.authorization ?? '').replace(/^Bearer /, '');

  const HANDLERS: Record<Service, (c: Call) => Answer> = {
    // https://docs.ntfy.sh/publish/#publish-as-json ; errors and 429: https://docs.ntfy.sh/publish/#limitations
    ntfy: (c) => {
      if (c.method !== 'POST' || c.path !== '/ntfy/')
        return json(404, { code: 40401, http: 404, error: 'page not found' });
      if (c.failure === 'rate-limit')
        return json(429, { code: 42901, http: 429, error: 'limit reached: too many requests, please be nice' });
      if (c.failure === 'refuse' || (c.headers.authorization && bearer(c.headers) !== CREDENTIALS.ntfyToken))
        return json(401, { code: 40101, http: 401, error: 'unauthorized' });
      if (typeof c.body.topic !== 'string' || typeof c.body.message !== 'string')
        return json(400, { code: 40024, http: 400, error: 'invalid request: topic invalid' });
      if (Buffer.byteLength(c.body.message) > 4096) return json(413, { code: 41301, http: 413, error: 'too large' });
      c.take();
      return json(200, { id: `n${++seq}`, time: 1, event: 'message', topic: c.body.topic });
    },
    // https://gotify.net/api-docs : POST /message, token in X-Gotify-Key; errors {error, errorCode, errorDescription}
    gotify: (c) => {
      if (c.method !== 'POST' || c.path !== '/gotify/message') return json(404, { error: 'Not Found', errorCode: 404 });
      if (c.failure === 'rate-limit')
        return json(503, { error: 'Service Unavailable', errorCode: 503, errorDescription: 'try again' });
      if (c.failure === 'refuse' || c.headers['x-gotify-key'] !== CREDENTIALS.gotifyToken)
        return json(401, {
          error: 'Unauthorized',
          errorCode: 401,
          errorDescription: 'you need to provide a valid access token or user credentials to access this api',
        });
      if (typeof c.body.message !== 'string' || c.body.message === '')
        return json(400, { error: 'Bad Request', errorCode: 400, errorDescription: "Field 'message' is required" });
      c.take();
      return json(200, {
        id: ++seq,
        appid: 1,
        message: c.body.message,
        title: c.body.title,
        priority: c.body.priority,
      });
    },
    // https://core.telegram.org/bots/api#making-requests and #sendmessage ; flood control: parameters.retry_after
    telegram: (c) => {
      const m = /^\/bot([^/]+)\/sendMessage$/.exec(c.path);
      if (!m || m[1] !== CREDENTIALS.telegramToken)
        return json(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      if (c.failure === 'rate-limit')
        return json(429, {
          ok: false,
          error_code: 429,
          description: 'Too Many Requests: retry after 3',
          parameters: { retry_after: 3 },
        });
      if (c.failure === 'ok-error')
        return json(200, { ok: false, error_code: 400, description: "Bad Request: can't parse entities" });
      if (c.failure === 'refuse' || c.body.chat_id !== CREDENTIALS.telegramChat)
        return json(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
      const text = String(c.body.text ?? '');
      const bare = text.replace(/<\/?b>|<a href="[^"<>]*">|<\/a>/g, '');
      if (c.body.parse_mode !== 'HTML' || /[<>]/.test(bare) || /&(?!(amp|lt|gt|quot);)/.test(bare))
        return json(400, { ok: false, error_code: 400, description: "Bad Request: can't parse entities" });
      if (text.length === 0 || text.length > 4096)
        return json(400, { ok: false, error_code: 400, description: 'Bad Request: message is too long' });
      c.take();
      return json(200, { ok: true, result: { message_id: ++seq, chat: { id: Number(c.body.chat_id) }, text } });
    },
    // https://pushover.net/api#messages and #response ; 429 over quota: https://pushover.net/api#limits
    pushover: (c) => {
      const request = `r${++seq}`;
      if (c.failure === 'rate-limit')
        return json(429, { status: 0, errors: ['application is over its monthly limit'], request });
      if (c.failure === 'ok-error') return json(200, { status: 0, errors: ['message is being held'], request });
      if (c.body.token !== CREDENTIALS.pushoverApp)
        return json(400, { token: 'invalid', errors: ['application token is invalid'], status: 0, request });
      if (c.failure === 'refuse' || c.body.user !== CREDENTIALS.pushoverUser)
        return json(400, {
          user: 'invalid',
          errors: ['user identifier is not a valid user, group, or subscribed user key'],
          status: 0,
          request,
        });
      const message = String(c.body.message ?? '');
      if (!message)
        return json(400, { message: 'cannot be blank', errors: ['message cannot be blank'], status: 0, request });
      if ([...message].length > 1024)
        return json(400, { message: 'too long', errors: ['message is more than 1024 characters'], status: 0, request });
      if ([...String(c.body.title ?? '')].length > 250)
        return json(400, { errors: ['title is more than 250 characters'], status: 0, request });
      c.take();
      return json(200, { status: 1, request });
    },
    // https://spec.matrix.org/v1.11/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid ;
    // errors #standard-error-response ; M_LIMIT_EXCEEDED with retry_after_ms #rate-limiting
    matrix: (c) => {
      const m = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/m\.room\.message\/([^/]+)$/.exec(c.path);
      if (c.method !== 'PUT' || !m) return json(404, { errcode: 'M_UNRECOGNIZED', error: 'Unrecognized request' });
      if (bearer(c.headers) !== CREDENTIALS.matrixToken)
        return json(401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.', soft_logout: false });
      if (c.failure === 'rate-limit')
        return json(429, { errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests', retry_after_ms: 2000 });
      if (c.failure === 'refuse' || decodeURIComponent(m[1]) !== CREDENTIALS.matrixRoom)
        return json(403, { errcode: 'M_FORBIDDEN', error: 'User @farsight:matrix.test not in room' });
      // A transaction id seen before answers the same event: nothing is posted twice.
      const txn = `${bearer(c.headers)} ${decodeURIComponent(m[2])}`;
      let eventId = matrixTxns.get(txn);
      if (!eventId) {
        eventId = `$event${++seq}`;
        matrixTxns.set(txn, eventId);
        c.take();
      }
      return json(200, { event_id: eventId });
    },
    // https://developer.pagerduty.com/docs/events-api-v2/trigger-events/ ; answers:
    // https://developer.pagerduty.com/docs/events-api-v2/overview/#response-codes--retry-logic
    pagerduty: (c) => {
      if (c.failure === 'rate-limit')
        return json(429, {
          status: 'throttle event',
          message: 'Requests for this service are arriving too quickly. Please retry later.',
        });
      const errors: string[] = [];
      if (c.failure === 'refuse' || c.body.routing_key !== CREDENTIALS.pagerdutyKey) errors.push('Invalid routing key');
      const action = c.body.event_action;
      if (action !== 'trigger' && action !== 'acknowledge' && action !== 'resolve') errors.push('Invalid event_action');
      const key = typeof c.body.dedup_key === 'string' ? c.body.dedup_key : '';
      const payload = (c.body.payload ?? {}) as Record<string, unknown>;
      if (action === 'trigger' && (typeof payload.summary !== 'string' || !payload.source || !payload.severity))
        errors.push("'payload' is missing or invalid");
      if (action !== 'trigger' && !key) errors.push("'dedup_key' is required for acknowledge and resolve");
      if (errors.length) return json(400, { status: 'invalid event', message: 'Event object is invalid', errors });
      c.take();
      const alert = pagerduty.get(key);
      if (action === 'trigger') {
        if (alert && alert.status !== 'resolved') alert.triggers++;
        else pagerduty.set(key, { status: 'triggered', triggers: 1 });
      } else if (alert && alert.status !== 'resolved')
        alert.status = action === 'resolve' ? 'resolved' : 'acknowledged';
      return json(202, { status: 'success', message: 'Event processed', dedup_key: key });
    },
    // https://developers.home-assistant.io/docs/api/rest/ : POST /api/services/<domain>/<service>, Bearer token
    'home-assistant': (c) => {
      if (bearer(c.headers) !== CREDENTIALS.haToken)
        return { status: 401, body: '401: Unauthorized', type: 'text/plain' };
      if (c.failure === 'rate-limit') return { status: 503, body: '503: Service Unavailable', type: 'text/plain' };
      if (c.failure === 'refuse' || c.path !== `/api/services/notify/${CREDENTIALS.haService.slice(7)}`)
        return json(400, { message: `Service ${c.path.split('/').slice(3).join('.')} not found.` });
      c.take();
      return json(200, []);
    },
    // https://github.com/caronc/apprise-api#api-details : POST /notify/<key> {title, body, type, format, tag}
    apprise: (c) => {
      if (c.path !== `/notify/${CREDENTIALS.appriseKey}`) return { status: 204, body: '' };
      if (c.failure === 'rate-limit')
        return { status: 424, body: 'One or more notification could not be sent.', type: 'text/plain' };
      if (c.failure === 'refuse' || typeof c.body.body !== 'string')
        return { status: 400, body: 'Bad FORM Payload provided', type: 'text/plain' };
      c.take();
      return { status: 200, body: 'Notification(s) sent.', type: 'text/plain' };
    },
  };

  function send(res: http.ServerResponse, a: Answer): void {
    res
      .writeHead(a.status, { 'Content-Type': a.type ?? 'application/json' })
      .end(a.status === 204 ? undefined : a.body);
  }

  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    accepted,
    pagerduty,
    failNext(service, failure, count = 1) {
      const list = failures.get(service) ?? [];
      for (let i = 0; i < count; i++) list.push(failure);
      failures.set(service, list);
    },
    of: (service) => accepted.filter((a) => a.service === service),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A channel config of each kind pointed at these APIs (Pushover and PagerDuty: FARSIGHT_*_API, see serviceApiEnv). */
export function serviceConfigs(origin: string): Record<Service, Record<string, unknown>> {
  const c = CREDENTIALS;
  return {
    ntfy: { server: `${origin}/ntfy`, topic: 'farsight-alerts', token: c.ntfyToken },
    gotify: { server: `${origin}/gotify`, token: c.gotifyToken },
    telegram: { bot_token: c.telegramToken, chat_id: c.telegramChat, api_base: origin },
    pushover: { user_key: c.pushoverUser, app_token: c.pushoverApp },
    matrix: { homeserver: origin, access_token: c.matrixToken, room_id: c.matrixRoom },
    pagerduty: { routing_key: c.pagerdutyKey },
    'home-assistant': { url: origin, token: c.haToken, service: c.haService },
    apprise: { url: `${origin}/notify/${c.appriseKey}` },
  };
}

/** The service's environment that sends Pushover and PagerDuty channels here. */
export function serviceApiEnv(origin: string): Record<string, string> {
  return { FARSIGHT_PUSHOVER_API: `${origin}/1/messages.json`, FARSIGHT_PAGERDUTY_API: `${origin}/v2/enqueue` };
}

/** Every secret value of CREDENTIALS, for asserting none reaches a log or an answer. */
export const SECRET_VALUES = [
  CREDENTIALS.ntfyToken,
  CREDENTIALS.gotifyToken,
  CREDENTIALS.telegramToken,
  CREDENTIALS.pushoverUser,
  CREDENTIALS.pushoverApp,
  CREDENTIALS.matrixToken,
  CREDENTIALS.pagerdutyKey,
  CREDENTIALS.haToken,
  CREDENTIALS.appriseKey,
];
