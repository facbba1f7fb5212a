import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../common/access';
import { render } from '../common/views';
import { pageCsp } from './page-csp';

/** Dashboard pages are plain Handlebars views with one external script each; no inline code. */
const PAGE_CSP = pageCsp({ challenge: false });

@Public()
@Controller()
export class DashboardController {
  /** First-run setup: the page reads the token from its own URL and talks to the API. */
  @Get('setup/:token')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_CSP)
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  setup(): string {
    return render('dashboard/setup', { title: 'Set up Farsight' }, 'dashboard/layout');
  }
}
