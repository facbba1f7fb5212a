/**
 * The `status_page` section of the export document: the one place export and import touch the
 * status page. The section is the settings object of GET /status-page without its read-only keys
 * (url, logo, domains, server_ips) and without `monitors` (each monitor carries its public fields
 * in its own entry). The logo and icon are not exported (binary assets; upload them again).
 * Import checks the section exactly as PUT /status-page does (same rules, same field names) and
 * writes it inside the import's transaction; keys it leaves out keep their stored values.
 */
import type { EntityManager } from 'typeorm';
import type { FieldError } from '../common/http/api-error';
import { parseSettingsBody } from '../status/settings/page-settings';
import type { StatusPageService } from '../status/settings/status-page.service';

export async function statusPageForExport(pages: StatusPageService): Promise<Record<string, unknown>> {
  return structuredClone(await pages.settings()) as unknown as Record<string, unknown>;
}

export interface StatusPageImport {
  /** Problems with the section, by key (`title`, `links[1].url`); any makes the whole import fail. */
  errors: FieldError[];
  /** The page's fields it changes (`title`, `hosts`…): none when applying it changes nothing. */
  fields: readonly string[];
  /** Writes the section inside the import's transaction (called only when there are no errors). */
  applyIn(m: EntityManager, actor: string): Promise<void>;
}

export async function importStatusPage(
  pages: StatusPageService,
  section: Record<string, unknown>,
): Promise<StatusPageImport> {
  const errors: FieldError[] = [];
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section)) {
    if (key === 'monitors')
      errors.push({
        field: 'monitors',
        message: 'each monitor carries its public fields in its own entry; the section has no monitors list',
      });
    else body[key] = value;
  }
  const parsed = parseSettingsBody(body, await pages.settings(), [], { dashboardHost: pages.dashboardHost() });
  if (!parsed.ok) errors.push(...parsed.errors);
  if (errors.length || !parsed.ok) return { errors, fields: [], applyIn: async () => undefined };
  const { next, changed } = parsed.patch;
  return {
    errors,
    fields: changed,
    applyIn: async (m, actor) => {
      if (changed.length) await pages.saveIn(m, next, changed, actor);
    },
  };
}
