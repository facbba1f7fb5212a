/** Spec "Public routes": health, heartbeat pings, these documents; and the other pages the app serves. */
import { bool, int, obj, str } from '../../common/validation/common.schema';
import type { Answer, RouteDoc } from '../route-doc';

const pub = { public: true } as const;
const text = (description: string): Answer => ({ description, type: 'text/plain', schema: str() });
const RETRY = { 'Retry-After': { description: 'seconds to wait', schema: int(0) } };
const PING_ANSWERS: Record<number, Answer> = {
  200: text('`OK` (or `OK (monitor paused: ping ignored)`)'),
  404: text('`unknown heartbeat URL`'),
  405: text('another method'),
  413: text('a body over 64 KB'),
  429: { ...text('too many pings from one address, or to one URL'), headers: RETRY },
};
const TOKEN = { token: { description: 'the heartbeat token from the monitor\'s ping URL' } };
const PING_BODY = { type: 'text/plain', required: false, schema: str(), description: 'optional text; the first 1 KB is kept and shown with the monitor' };
const ping = (method: 'get' | 'post' | 'head', id: string): RouteDoc => ({
  method, path: '/hb/{token}', id, tag: 'Public', summary: 'Heartbeat ping: the monitored job is alive', access: pub, params: TOKEN, servedAhead: true,
  description: 'For cron jobs and scripts: `curl -fsS <heartbeat_url>`. Answered ahead of the framework in plain text (docs/engine.md "Heartbeats").',
  ...(method === 'post' ? { body: PING_BODY } : {}),
  answers: PING_ANSWERS,
});
const page = (description: string): Answer => ({ description, type: 'text/html', schema: str() });
const SIGN_IN = { description: 'signed out: to the sign-in page', type: 'text/plain', schema: str() };
const ID = (what: string) => ({ id: { description: `the ${what}'s id` } });
/** A page of the dashboard (docs/dashboard.md): the owner's, so signed out it sends the browser to /signin. */
const dashboardPage = (path: string, id: string, summary: string, talksTo: string, params?: RouteDoc['params']): RouteDoc => ({
  method: 'get', path, id, tag: 'Public', summary, access: pub, ...(params ? { params } : {}),
  extra: `a page of the dashboard; signed out it sends the browser to /signin (303). It talks to ${talksTo}.`,
  answers: params
    ? { 200: page('the page'), 303: SIGN_IN, 404: { description: 'not an id', type: 'application/json', schema: { type: 'object' } } }
    : { 200: page('the page'), 303: SIGN_IN },
});

export const PUBLIC_ROUTES: RouteDoc[] = [
  {
    method: 'get', path: '/api/health', id: 'health', tag: 'Public', summary: 'Is the service up', access: pub,
    answers: { 200: { description: 'the running version and how long it has run', schema: obj({ ok: bool({ const: true }), version: str(), uptime_s: int(0) }) } },
  },
  ping('get', 'heartbeatGet'),
  ping('head', 'heartbeatHead'),
  ping('post', 'heartbeatPost'),
  {
    method: 'post', path: '/hb/{token}/fail', id: 'heartbeatFail', tag: 'Public', summary: 'Report a failure of the monitored job', access: pub, params: TOKEN, servedAhead: true,
    description: 'The monitor goes Down at once; the text is shown in the alert.', body: { ...PING_BODY, description: 'optional text, up to 1 KB is kept and shown in the alert' },
    answers: PING_ANSWERS,
  },
  { method: 'get', path: '/api/openapi.json', id: 'openapi', tag: 'Public', summary: 'This route description (OpenAPI 3.1)', access: pub, answers: { 200: { description: 'the document', schema: { type: 'object' } } } },
  { method: 'get', path: '/llms.txt', id: 'llmsTxt', tag: 'Public', summary: 'A short summary for agents (llms.txt)', access: pub, answers: { 200: { description: 'Markdown, as the llms.txt convention has it', type: 'text/plain', schema: str() } } },
  { method: 'get', path: '/docs', id: 'docsIndex', tag: 'Public', summary: 'The documentation: the contract and the user docs', access: pub, answers: { 200: page('the list of pages') } },
  {
    method: 'get', path: '/docs/{page}', id: 'docsPage', tag: 'Public', summary: 'One page of the documentation', access: pub,
    params: { page: { schema: str({ pattern: '^[a-z0-9-]+$' }), description: 'the page, e.g. `interface` (the full contract) or `api`' } },
    answers: { 200: page('the page'), 404: page('no such page') },
  },
  {
    method: 'get', path: '/docs/images/{file}', id: 'docsImage', tag: 'Public', summary: 'A picture shown in the documentation', access: pub,
    extra: 'the pictures the documentation pages show (docs/images/), served beside them; an SVG is sandboxed.',
    answers: { 200: { description: 'the picture', type: 'image/*', schema: str({ format: 'binary' }) } },
  },
  {
    method: 'get', path: '/docs.css', id: 'docsCss', tag: 'Public', summary: 'The stylesheet of the documentation', access: pub,
    extra: 'the documentation pages\' one stylesheet (the pages carry no inline style).', answers: { 200: { description: 'stylesheet', type: 'text/css', schema: str() } },
  },
  {
    method: 'get', path: '/favicon.ico', id: 'favicon', tag: 'Public', summary: 'The dashboard\'s icon, for browsers that ask for it', access: pub,
    extra: 'an ICO file holding the dashboard\'s 192 px PNG icon; cached for a day.',
    answers: { 200: { description: 'the icon', type: 'image/x-icon', schema: str({ format: 'binary' }) } },
  },
  {
    method: 'get', path: '/setup/{token}', id: 'setupPage', tag: 'Public', summary: 'The first-run setup page', access: pub,
    extra: 'the page behind the link `farsight setup-link` prints; it talks to /api/v1/auth/setup/{token}.',
    params: { token: { description: 'the setup token' } }, answers: { 200: page('the page') },
  },
  {
    method: 'get', path: '/', id: 'landingPage', tag: 'Public', summary: 'The dashboard\'s overview (on a status page host: the status page)', access: pub,
    extra: 'signed out, it sends the browser to /signin (303); on one of the status page\'s own hosts it is the status page (docs/dashboard.md).',
    answers: { 200: page('the page'), 303: { description: 'to the sign-in page', type: 'text/plain', schema: str() } },
  },
  dashboardPage('/account', 'accountPage', 'Who is signed in, and adding a passkey', '/api/v1/me/passkeys/*'),
  dashboardPage('/monitors/new', 'monitorNewPage', 'The form that adds a monitor', '/api/v1/monitors, /monitors/test and /settings'),
  dashboardPage('/monitors/{id}', 'monitorPage', 'One monitor: state, charts, checks, incidents, actions', '/api/v1/monitors/{id}/*', ID('monitor')),
  dashboardPage('/monitors/{id}/edit', 'monitorEditPage', 'The form that changes a monitor', 'PATCH /api/v1/monitors/{id}', ID('monitor')),
  dashboardPage('/incidents', 'incidentsPage', 'Every incident, by state and monitor', '/api/v1/incidents'),
  dashboardPage('/incidents/{id}', 'incidentPage', 'One incident: timeline, failed checks, acknowledge and note', '/api/v1/incidents/{id}', ID('incident')),
  dashboardPage('/channels', 'channelsPage', 'Alert channels and the delivery log', '/api/v1/channels and /deliveries'),
  dashboardPage('/status-page', 'statusPageEditor', 'The status page editor with a live preview', '/api/v1/status-page/*'),
  dashboardPage('/settings', 'settingsPage', 'Service settings, export and import', '/api/v1/settings, /export and /import'),
  dashboardPage('/security', 'securityPage', 'Passkeys, password, authenticator, recovery codes, sessions, blocked addresses', '/api/v1/me/*'),
  dashboardPage('/keys', 'keysPage', 'API keys', '/api/v1/keys'),
  dashboardPage('/timeline', 'timelinePage', 'The timeline, by kind and monitor', '/api/v1/events'),
  dashboardPage('/diagnostics', 'diagnosticsPage', 'The service\'s own health', '/api/v1/diagnostics'),
  {
    method: 'get', path: '/dashboard/manifest.webmanifest', id: 'dashboardManifest', tag: 'Public', summary: 'The installable dashboard\'s web app manifest', access: pub,
    extra: 'makes the dashboard installable (docs/dashboard.md).',
    answers: { 200: { description: 'the manifest', type: 'application/manifest+json', schema: { type: 'object' } } },
  },
  {
    method: 'get', path: '/sw.js', id: 'dashboardServiceWorker', tag: 'Public', summary: 'The dashboard\'s service worker (keeps the shell, never an API answer)', access: pub,
    extra: 'the installed dashboard\'s worker, at the root so its scope is the whole dashboard.',
    answers: { 200: { description: 'the worker', type: 'text/javascript', schema: str() } },
  },
  { method: 'get', path: '/offline', id: 'offlinePage', tag: 'Public', summary: 'What the installed dashboard shows when the server cannot be reached', access: pub,
    extra: 'kept by the service worker and shown when a page cannot be loaded.', answers: { 200: page('the page') } },
  { method: 'get', path: '/signin', id: 'signInPage', tag: 'Public', summary: 'The sign-in page (passkey, or email + password and a code)', access: pub,
    extra: 'the page a person signs in on; it talks to /api/v1/auth/passkey/* and /api/v1/auth/password + /auth/code.', answers: { 200: page('the page') } },
  { method: 'get', path: '/forgot', id: 'forgotPage', tag: 'Public', summary: 'The page that asks for a password reset link', access: pub,
    extra: 'the page behind "Forgot your password?"; it talks to /api/v1/auth/forgot.', answers: { 200: page('the page') } },
  {
    method: 'get', path: '/reset/{token}', id: 'resetPage', tag: 'Public', summary: 'The page behind a password reset link', access: pub,
    extra: 'the page the reset email links to; it talks to /api/v1/auth/reset.',
    params: { token: { description: 'the reset token from the email' } }, answers: { 200: page('the page') },
  },
  {
    method: 'get', path: '/enroll/{token}', id: 'enrollPage', tag: 'Public', summary: 'The page behind a break-glass link (`farsight enroll-link`)', access: pub,
    extra: 'the page behind the link `farsight enroll-link` prints; it talks to /api/v1/auth/enroll/{token}.',
    params: { token: { description: 'the enrolment token' } }, answers: { 200: page('the page') },
  },
  {
    method: 'get', path: '/auth/assets/{file}', id: 'signInAsset', tag: 'Public', summary: 'A script or stylesheet of the sign-in pages', access: pub,
    extra: 'the files the sign-in pages load (one script per page).', answers: { 200: { description: 'the file', type: '*/*', schema: str({ format: 'binary' }) } },
  },
  {
    method: 'get', path: '/dashboard/assets/{file}', id: 'dashboardAsset', tag: 'Public', summary: 'A script or stylesheet of the dashboard pages', access: pub,
    extra: 'the files the dashboard pages load (one entry module per page, which imports shared modules), named `?v=<content hash>` and then cached for a year.', answers: { 200: { description: 'the file', type: '*/*', schema: str({ format: 'binary' }) } },
  },
];
