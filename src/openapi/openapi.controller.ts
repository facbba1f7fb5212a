import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Public } from '../common/access/access';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/**
 * GET /api/openapi.json. The route table, the schemas and the document are loaded and built on
 * the first request and kept (they depend only on the code and the public URL): none of it costs
 * start-up time.
 */
@Public()
@Controller('api/openapi.json')
export class OpenApiController {
  private document: { url: string; json: Promise<string> } | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  @Header('Access-Control-Allow-Origin', '*')
  get(): Promise<string> {
    // Built again if the public URL changed since (setup may save one while the service runs).
    const url = this.config.publicUrl;
    if (this.document?.url !== url) this.document = { url, json: import('./build').then((m) => m.openApiJson(url)) };
    return this.document.json;
  }
}
