/**
 * The sign-in pages (sign in, forgot, reset, enrolment link); after sign-in the dashboard (app-pages.controller.ts).
 * Each is a Handlebars view with one script module under /auth/assets/, nothing inline, and a
 * strict content security policy; the scripts talk to the API routes of the spec. Pages with a
 * token in their address send no Referer.
 */
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/access/access';
import { ApiError } from '../common/http/api-error';
import type { AppRequest } from '../common/access/request-context';
import { contentTypeFor } from '../common/resources/static-files';
import { render } from '../common/resources/views';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AuthService } from '../auth/auth.service';
import { passkeyProblem } from '../auth/passkeys/relying-party';
import { versionOf } from '../status/settings/status-page.repository';
import { pageFiles, requestedName } from './asset-folders';
import type { LinkedFile } from './asset-links';
import { PageFrame } from './auth-pages';
import { pageCsp } from './page-csp';
import { safeNextPath } from './next-path';

@Public()
@Controller()
export class AuthPagesController {
  /** public/auth/ and public/shared/, linked: read at the first asked for; they never change while the process runs. */
  private files: Map<string, LinkedFile> | null = null;

  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `?next=`: the page that was asked for, returned to after signing in when it is safe (next-path.ts). */
  @Get('signin')
  async signIn(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    const next = safeNextPath(typeof req.query.next === 'string' ? req.query.next : null) ?? '/';
    if (await this.auth.signedIn(req)) return res.redirect(303, next);
    this.page(res, 'signin', { ...this.frame('Sign in · Farsight', 'signin.js'), next });
  }

  @Get('forgot')
  forgot(@Res() res: Response): void {
    this.page(res, 'forgot', this.frame('Reset your password · Farsight', 'forgot.js'));
  }

  @Get('reset/:token')
  reset(@Res() res: Response): void {
    this.page(res, 'reset', this.frame('Choose a new password · Farsight', 'reset.js'));
  }

  @Get('enroll/:token')
  enroll(@Res() res: Response): void {
    this.page(res, 'enroll', this.frame('Add a passkey · Farsight', 'enroll.js'));
  }

  @Get(['auth/assets/:file', 'auth/assets/:dir/:file'])
  asset(@Param('dir') dir: string | undefined, @Param('file') file: string, @Res() res: Response): void {
    const name = requestedName(dir, file);
    const type = name === null ? null : contentTypeFor(name);
    const linked = name !== null && type ? (this.files ??= pageFiles('auth', versionOf).linked).get(name) : undefined;
    if (!type || !linked) throw ApiError.notFound('asset');
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'no-cache');
    res.send(linked.data);
  }

  private frame(title: string, script: string): PageFrame {
    return {
      title,
      script,
      publicOrigin: this.config.publicOrigin,
      passkeyProblem: passkeyProblem(this.config.publicUrl) ?? '',
      siteKey: this.config.challenge?.siteKey ?? '',
    };
  }

  private page(res: Response, view: string, model: PageFrame & object): void {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', pageCsp({ challenge: model.siteKey !== '' }));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.send(render(`auth/${view}`, { ...model }, 'auth/layout'));
  }
}
