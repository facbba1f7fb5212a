/**
 * The dashboard's pages: one shell (views/dashboard/app.hbs: navigation, dialogs, banners) around
 * each page's view, and one entry module per page under /dashboard/assets/ that loads what the page
 * shows from /api/v1 with the owner's session, as a script with a key would. Signed out, every
 * page sends the visitor to the sign-in page.
 */
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../common/access/access';
import { ApiError } from '../common/http/api-error';
import { readCookie } from '../common/http/cookies';
import { isIdText } from '../common/validation/ids';
import type { AppRequest } from '../common/access/request-context';
import { requestedName } from './asset-folders';
import { readResource } from '../common/resources/resources';
import { render } from '../common/resources/views';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AuthService } from '../auth/auth.service';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { OwnerPasskeysService } from '../auth/passkeys/owner-passkeys.service';
import { passkeyProblem } from '../auth/passkeys/relying-party';
import { homeView } from './auth-pages';
import { pickEncoding } from '../common/http/compression/accept-encoding';
import { Packed } from '../common/http/compression/compression';
import { DashboardAssets } from './dashboard-assets';
import { navFor, PageKey, themeChoices, themeOf } from './nav';
import { safeNextPath } from './next-path';
import { pageCsp } from './page-csp';
import { serviceWorkerSource } from './service-worker';
import { kindGroups, kindWordsJson } from './timeline-kinds';
import { VERSION } from '../common/version';

const APP_CSP = pageCsp({ challenge: false, app: true });
export const THEME_COOKIE = 'farsight_theme';
/**
 * The overview's first API requests (overview.js loadAll and api.js getAll), named in its HTML as
 * `preload` links: they start while its modules load instead of after. Each must be the exact
 * path the page asks for (a preload nobody asks for is fetched for nothing).
 */
const LIST_PAGE = 500;
/** Pages of the monitor list preloaded: 2,000 monitors; a longer list's further pages are asked for as usual. */
const LIST_PAGES_PRELOADED = 4;
export function overviewFetches(cursors: readonly number[]): string[] {
  return [
    `/api/v1/monitors?limit=${LIST_PAGE}`,
    ...cursors.map((c) => `/api/v1/monitors?limit=${LIST_PAGE}&before=${c}`),
    '/api/v1/summary',
    '/api/v1/incidents?state=open&limit=100',
  ];
}

/** The choices the monitor form offers (the kinds with a line each, and the kinds' enumerations). */
const FORM_CHOICES = {
  kinds: [
    { value: 'http', label: 'HTTP', hint: 'a web page or API' },
    { value: 'tcp', label: 'TCP', hint: 'a port accepts connections' },
    { value: 'ping', label: 'Ping', hint: 'a host answers' },
    { value: 'dns', label: 'DNS', hint: 'a name resolves' },
    { value: 'tls', label: 'TLS', hint: 'a certificate stays valid' },
    { value: 'heartbeat', label: 'Heartbeat', hint: 'a job checks in' },
    { value: 'smtp', label: 'SMTP', hint: 'a mail server greets' },
    { value: 'docker', label: 'Docker', hint: 'a container runs' },
    { value: 'redis', label: 'Redis', hint: 'PING answers PONG' },
    { value: 'postgres', label: 'PostgreSQL', hint: 'a query answers' },
    { value: 'mysql', label: 'MySQL, MariaDB', hint: 'a query answers' },
    { value: 'mqtt', label: 'MQTT', hint: 'a broker, a topic' },
    { value: 'grpc', label: 'gRPC', hint: 'the health check says SERVING' },
  ],
  dbTls: [
    { value: 'off', label: 'Off' },
    { value: 'require', label: 'Required (any certificate)' },
    { value: 'verify', label: 'Verified certificate' },
  ],
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  records: ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'],
};

/** Where the .deb's farsight-agent.service reads FARSIGHT_AGENT_SERVER and FARSIGHT_AGENT_TOKEN (packaging/deb/). */
const AGENT_ENV_FILE = '/etc/farsight/agent.env';

/** The alert events a channel may receive (spec "Alert events"), in words. */
const ALERT_EVENTS = [
  { value: 'down', label: 'Down' },
  { value: 'up', label: 'Up again' },
  { value: 'slow', label: 'Slow, and back to normal' },
  { value: 'flapping', label: 'Flapping' },
  { value: 'cert', label: 'Certificate expiry' },
  { value: 'reminder', label: 'Reminders while down' },
  { value: 'notice', label: 'Notices of the service' },
];

/** The weekly schedule's day checkboxes, Monday first (engine/maintenance/schedule.ts WEEKDAYS). */
const MAINTENANCE_DAYS = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
].map(([value, label]) => ({ value, label }));

@Public()
@Controller()
export class AppPagesController {
  private serviceWorkerText: string | undefined;

  constructor(
    private readonly auth: AuthService,
    private readonly passkeys: OwnerPasskeysService,
    private readonly assets: DashboardAssets,
    private readonly monitors: MonitorsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async overview(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'overview', 'Overview', 'overview', async () => ({
      fetches: overviewFetches(await this.monitors.pageCursors(LIST_PAGE, LIST_PAGES_PRELOADED)),
    }));
  }

  @Get('monitors/new')
  async newMonitor(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'overview', 'Add a monitor', 'monitor-form', {
      ...FORM_CHOICES,
      save: 'Add the monitor',
      back: '/',
      monitorId: '',
    });
  }

  @Get('monitors/:id')
  async monitor(@Param('id') id: string, @Req() req: AppRequest, @Res() res: Response): Promise<void> {
    if (!isIdText(id)) throw ApiError.notFound('monitor');
    await this.page(req, res, 'overview', 'Monitor', 'monitor', { monitorId: id });
  }

  @Get('monitors/:id/edit')
  async editMonitor(@Param('id') id: string, @Req() req: AppRequest, @Res() res: Response): Promise<void> {
    if (!isIdText(id)) throw ApiError.notFound('monitor');
    await this.page(req, res, 'overview', 'Edit the monitor', 'monitor-form', {
      ...FORM_CHOICES,
      save: 'Save the changes',
      back: `/monitors/${id}`,
      monitorId: id,
    });
  }

  @Get('incidents')
  async incidents(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'incidents', 'Incidents', 'incidents', {});
  }

  @Get('incidents/:id')
  async incident(@Param('id') id: string, @Req() req: AppRequest, @Res() res: Response): Promise<void> {
    if (!isIdText(id)) throw ApiError.notFound('incident');
    await this.page(req, res, 'incidents', 'Incident', 'incident', { incidentId: id, kindWords: kindWordsJson() });
  }

  @Get('maintenance')
  async maintenance(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'maintenance', 'Maintenance', 'maintenance', { days: MAINTENANCE_DAYS });
  }

  /**
   * Probe locations: the install lines shown with a new token name this service's public address,
   * this version's .deb and the agent's environment file (docs/agents.md).
   */
  @Get('locations')
  async locations(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'locations', 'Locations', 'locations', {
      agentServer: this.config.publicUrl.replace(/\/$/, ''),
      version: VERSION,
      agentEnvFile: AGENT_ENV_FILE,
    });
  }

  @Get('channels')
  async channels(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'channels', 'Alert channels', 'channels', { events: ALERT_EVENTS });
  }

  @Get('keys')
  async keys(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'keys', 'API keys', 'keys', {});
  }

  @Get('status-page')
  async statusPage(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'status-page', 'Status page', 'status-page', {
      ranges: ['24h', '7d', '30d', '90d', '12mo'],
    });
  }

  @Get('security')
  async security(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'security', 'Security', 'security', {});
  }

  @Get('settings')
  async settings(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'settings', 'Settings', 'settings', {});
  }

  @Get('diagnostics')
  async diagnostics(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'diagnostics', 'Diagnostics', 'diagnostics', {});
  }

  @Get('timeline')
  async timeline(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await this.page(req, res, 'timeline', 'Timeline', 'timeline', {
      kindGroups: kindGroups(),
      kindWords: kindWordsJson(),
    });
  }

  /** Who is signed in, how and since when, and their passkeys (the landing page of the sign-in pages, moved here). */
  @Get('account')
  async account(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    const signedIn = await this.auth.signedIn(req);
    if (!signedIn) return res.redirect(303, signInFor(req));
    const { items } = await this.passkeys.list();
    this.send(
      req,
      res,
      signedIn.email,
      'account',
      'Account',
      'auth/home',
      'pages/account.js',
      homeView(signedIn, items),
    );
  }

  /** The installable app's manifest: the dashboard, from /, with Farsight's own icons. */
  @Get('dashboard/manifest.webmanifest')
  manifest(@Res() res: Response): void {
    res.setHeader('Content-Type', 'application/manifest+json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.send(
      JSON.stringify({
        name: 'Farsight',
        short_name: 'Farsight',
        description: 'Uptime monitoring: your monitors, incidents and alerts.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#564be6',
        background_color: '#111114',
        icons: [
          { src: this.assets.url('icons/icon-192.png'), sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: this.assets.url('icons/icon-512.png'), sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: this.assets.url('icons/icon-maskable-512.png'),
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      }),
    );
  }

  /** The service worker, at the root so that its scope is the whole dashboard (service-worker.ts). */
  @Get('sw.js')
  serviceWorker(@Res() res: Response): void {
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    // A worker runs under its own script's policy: it fetches the shell from here, nothing else.
    res.setHeader('Content-Security-Policy', "default-src 'none'; connect-src 'self'; frame-ancestors 'none'");
    res.send(
      (this.serviceWorkerText ??= serviceWorkerSource(readResource('public/dashboard/sw.js').toString('utf8'), [
        ...this.assets.urls(),
        '/offline',
      ])),
    );
  }

  /** What the installed app shows when the server cannot be reached (kept by the service worker). */
  @Get('offline')
  offline(@Res() res: Response): void {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', APP_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    // Named by its hashed URL, which the service worker keeps: the page is drawn offline too.
    res.send(
      render(
        'dashboard/offline',
        { title: 'Offline · Farsight', baseCss: this.assets.url('dashboard.css') },
        'dashboard/layout',
      ),
    );
  }

  @Get(['dashboard/assets/:file', 'dashboard/assets/:dir/:file'])
  asset(
    @Param('dir') dir: string | undefined,
    @Param('file') file: string,
    @Req() req: Request,
    @Res() res: Response,
  ): void {
    const name = requestedName(dir, file);
    const a = name === null ? null : this.assets.get(name);
    if (!a) throw ApiError.notFound('asset');
    this.assets.send(req, res, a);
  }

  /** A page for the signed-in owner; `model` may be work to do once the owner is known to be signed in. */
  private async page(
    req: AppRequest,
    res: Response,
    key: PageKey,
    title: string,
    view: string,
    model: object | (() => Promise<object>),
  ): Promise<void> {
    const signedIn = await this.auth.signedIn(req);
    if (!signedIn) return res.redirect(303, signInFor(req));
    this.send(
      req,
      res,
      signedIn.email,
      key,
      title,
      `dashboard/${view}`,
      `pages/${view}.js`,
      typeof model === 'function' ? await model() : model,
    );
  }

  /** A page of the app; `script` is its module's path under public/dashboard/ (pages/<view>.js). */
  private send(
    req: AppRequest,
    res: Response,
    email: string,
    key: PageKey,
    title: string,
    view: string,
    script: string,
    model: object,
  ): void {
    const theme = themeOf(readCookie(req.headers.cookie, THEME_COOKIE));
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', APP_CSP);
    res.setHeader('Cache-Control', 'no-store');
    // Runbook and target links leave the dashboard without its addresses.
    res.setHeader('Referrer-Policy', 'no-referrer');
    const html = render(
      view,
      {
        ...model,
        title: `${title} · Farsight`,
        heading: title,
        email,
        script: this.assets.url(script),
        preload: this.assets.modulesOf(script),
        nav: navFor(key),
        theme,
        themes: themeChoices(theme),
        css: this.assets.url('app.css'),
        baseCss: this.assets.url('dashboard.css'),
        mark: '/auth/assets/mark.svg',
        appleIcon: this.assets.url('icons/apple-touch-icon.png'),
        publicOrigin: this.config.publicOrigin,
        passkeyProblem: passkeyProblem(this.config.publicUrl) ?? '',
      },
      'dashboard/app',
    );
    // Compressed like every asset: the page weight is what travels.
    const encoding = pickEncoding(req.headers['accept-encoding']);
    const body = new Packed(html).body(encoding);
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(body);
  }
}

/** The sign-in page, told to return to this page afterwards. */
function signInFor(req: AppRequest): string {
  const here = safeNextPath(req.originalUrl);
  return here === null || here === '/' ? '/signin' : `/signin?next=${encodeURIComponent(here)}`;
}
