import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/access';
import { ApiError } from '../common/api-error';
import { tryReadResource } from '../common/resources';
import { contentTypeFor, isSafeAssetName } from '../common/static-files';
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

  @Get('dashboard/assets/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    const type = isSafeAssetName(file) ? contentTypeFor(file) : null;
    const data = type ? tryReadResource(`public/dashboard/${file}`) : null;
    if (!type || !data) throw ApiError.notFound('asset');
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'no-cache');
    res.send(data);
  }
}
