import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/access/access';
import { readResource } from '../common/resources/resources';
import { render } from '../common/resources/views';
import { DashboardAssets } from './dashboard-assets';
import { icoOfPng } from './favicon';
import { pageCsp } from './page-csp';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/** Dashboard pages are plain Handlebars views with external module scripts; no inline code. */
const PAGE_CSP = pageCsp({ challenge: false });

@Public()
@Controller()
export class DashboardController {
  private favicon: Buffer | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly assets: DashboardAssets,
  ) {}

  /** The dashboard's icon (favicon.ts), made at the first request: few processes are ever asked. */
  @Get('favicon.ico')
  icon(@Res() res: Response): void {
    this.favicon ??= icoOfPng(readResource('public/dashboard/icons/icon-192.png'));
    res.setHeader('Content-Type', 'image/x-icon');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.end(this.favicon);
  }

  /**
   * First-run setup: the page reads the token from its own URL and talks to the API. While no
   * public URL is configured, it offers to save the address it is open at (the script compares).
   */
  @Get('setup/:token')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_CSP)
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  setup(): string {
    const offer = this.config.publicUrlSource === 'default';
    return render(
      'dashboard/setup',
      {
        title: 'Set up Farsight',
        offerPublicUrl: offer,
        publicUrl: this.config.publicUrl,
        // Modules by their hashed URLs, like every page of the app (the shared page.js they import too).
        script: this.assets.url('pages/setup.js'),
        codesScript: this.assets.url('pages/setup-codes.js'),
        baseCss: this.assets.url('dashboard.css'),
      },
      'dashboard/layout',
    );
  }
}
