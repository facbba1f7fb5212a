/**
 * The `status_page` section of the export document: the one place export and import touch the
 * status page. Both functions are async and take the import's transaction so that the status page
 * module (src/status/, built alongside) can be wired in here without changing their callers.
 *
 * What is stored about the status page today is only each monitor's public fields (`public`,
 * `public_name`, `public_group`, `sort`), and those travel with the monitors. So until the status
 * page module is wired in:
 * - statusPageForExport() answers `{}`;
 * - importStatusPage() accepts `{}` and refuses every key, naming it (nothing is ever dropped
 *   silently), so a document from a build that exports status page settings is refused whole
 *   rather than imported without them.
 * Once wired: export the settings object of GET /status-page without its read-only keys (url,
 * logo, domains, server_ips) and without `monitors` (each monitor carries its public fields);
 * import checks the section as PUT /status-page does and writes it inside the import's transaction.
 */
import type { EntityManager } from 'typeorm';
import type { FieldError } from '../common/api-error';

export async function statusPageForExport(): Promise<Record<string, unknown>> {
  return {};
}

export interface StatusPageImport {
  /** Problems with the section, by key (`title`, `links[1].url`); any makes the whole import fail. */
  errors: FieldError[];
  /** Whether applying it changes the stored page. */
  changed: boolean;
  /** Writes the section inside the import's transaction (called only when there are no errors). */
  applyIn(m: EntityManager): Promise<void>;
}

export async function importStatusPage(section: Record<string, unknown>): Promise<StatusPageImport> {
  const errors = Object.keys(section).map((key) => ({
    field: key.slice(0, 60),
    message: 'this version keeps no status page settings of its own to import (each monitor carries its public fields)',
  }));
  return { errors, changed: false, applyIn: async () => undefined };
}
