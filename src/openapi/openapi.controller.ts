import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Public } from '../common/access';
import { VERSION } from '../common/version';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { buildDocument, OpenApiDocument } from './document';
import { ROUTES } from './routes';
import { allSchemas } from './schemas';

/** GET /api/openapi.json: built once at start (it depends only on the code and the public URL). */
@Public()
@Controller('api/openapi.json')
export class OpenApiController {
  private readonly document: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const doc: OpenApiDocument = buildDocument(ROUTES, allSchemas(), { serverUrl: config.publicUrl, serviceVersion: VERSION });
    this.document = JSON.stringify(doc);
  }

  @Get()
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  @Header('Access-Control-Allow-Origin', '*')
  get(): string {
    return this.document;
  }
}
