import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Public } from '../common/access';
import { render } from '../common/views';
import { pageCsp } from './page-csp';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/** Dashboard pages are plain Handlebars views with one external script each; no inline code. */
const PAGE_CSP = pageCsp({ challenge: false });

@Public()
@Controller()
export class DashboardController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

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
    return render('dashboard/setup', { title: 'Set up Farsight', offerPublicUrl: offer, publicUrl: this.config.publicUrl }, 'dashboard/layout');
  }
}
