/**
 * The route table: every route of the specification and every other route the app serves, in
 * the order the document lists them. test/openapi/ holds it against the routes the running app
 * registers (both ways), against the access decorators on their handlers, and against the spec's
 * Endpoints tables.
 */
import type { RouteDoc } from './route-doc';
import { ALERT_ROUTES } from './routes/alerts.routes';
import { AUTH_ROUTES } from './routes/auth.routes';
import { INTEGRATION_ROUTES } from './routes/integrations.routes';
import { MAINTENANCE_ROUTES } from './routes/maintenance.routes';
import { LOCATION_ROUTES } from './routes/locations.routes';
import { MONITOR_ROUTES } from './routes/monitors.routes';
import { PUBLIC_ROUTES } from './routes/public.routes';
import { STATUS_PAGE_ROUTES } from './routes/status-page.routes';
import { SYSTEM_ROUTES } from './routes/system.routes';

export const ROUTES: readonly RouteDoc[] = [
  ...MONITOR_ROUTES,
  ...ALERT_ROUTES,
  ...MAINTENANCE_ROUTES,
  ...LOCATION_ROUTES,
  ...STATUS_PAGE_ROUTES,
  ...SYSTEM_ROUTES,
  ...AUTH_ROUTES,
  ...PUBLIC_ROUTES,
  ...INTEGRATION_ROUTES,
];
