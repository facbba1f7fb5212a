/** The document as the route serves it. Loaded on the first request (openapi.controller.ts), not at start. */
import { VERSION } from '../common/version';
import { buildDocument } from './document';
import { ROUTES } from './routes';
import { allSchemas } from './schemas';

export function openApiJson(serverUrl: string): string {
  return JSON.stringify(buildDocument(ROUTES, allSchemas(), { serverUrl, serviceVersion: VERSION }));
}
