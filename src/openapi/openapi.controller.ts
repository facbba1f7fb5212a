import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Public } from '../common/access';
import { VERSION } from '../common/version';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { buildDocument, OpenApiDocument } from './document';
import { ROUTES } from './routes';
import { allSchemas } from './schemas';

/**
 * GET /api/openapi.json: built on the first request and kept (it depends only on the code and the
 * public URL), so building it costs nothing at start.
 */
@Public()
@Controller('api/openapi.json')
export class OpenApiController {
  private document: string | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  @Header('Access-Control-Allow-Origin', '*')
  get(): string {
    if (this.document === null) {
      const doc: OpenApiDocument = buildDocument(ROUTES, allSchemas(), { serverUrl: this.config.publicUrl, serviceVersion: VERSION });
      this.document = JSON.stringify(doc);
    }
    return this.document;
  }
}
