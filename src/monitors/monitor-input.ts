/**
 * Turns a monitor body from outside (POST, PUT by slug, PATCH merged over the stored monitor, a
 * bulk item, POST /monitors/test) into a MonitorConfig, or into field errors. Steps:
 *  1. fill defaults (a `null` for a field with a default means the default);
 *  2. check types and bounds (class-validator DTOs), unknown fields included;
 *  3. check cross-field rules (monitor-rules.ts);
 *  4. normalise: URL credentials into `auth`, credential headers secret, slow_ms 0 → off,
 *     ******** kept from the stored monitor where the keep-rule allows.
 * Pure apart from the inputs: the service supplies defaults, the stored monitor and slugs.
 */
import type { FieldError } from '../common/http/api-error';
import { parseIso } from '../common/time';
import { checkDto, requireObjectBody } from '../common/validation/validation';
import type { MonitorDefaults } from '../settings/settings-defaults';
import { normalizeCertSha256 } from '../probes/judge/cert-pin';
import { MonitorDto } from './dto/monitor.dto';
import { COMMON_FIELDS, CommonSettings, kindConfig, MonitorConfig } from '../probes/monitor-config';
import { commonDefaults, KIND_DEFAULTS, REQUIRED_KIND_FIELDS, withDefaults } from './monitor-defaults';
import { monitorRuleErrors } from './monitor-rules';
import { HttpSettings, KindSettings, MONITOR_KINDS, MonitorKind } from '../probes/kinds';
import { maskSecrets } from '../common/secrets/secret-fields';
import { extractUrlCredentials, forceSecretHeaders, keepMaskedSecrets } from './secrets';
import { KIND_SECRETS } from '../probes/kind-secrets';
import { DependencyRef, parseDependencyRefs } from './depends-on/depends-on-plan';
import { normaliseUrlSecret } from './service-rules';

type Plain = Record<string, unknown>;

/** Fields of a monitor answer that a body may carry back (a GET answer edited and sent again); they are ignored. */
export const READ_ONLY_FIELDS = ['id', 'target', 'created_at', 'updated_at', 'state', 'stats', 'heartbeat_url'];

/**
 * `dependsOn` holds the refs of `depends_on` as given; `config.depends_on` is empty until the service
 * resolves them against the stored monitors (MonitorsService.withDependencies).
 */
export type ParseResult =
  | { ok: true; config: MonitorConfig; slugGiven: boolean; dependsOn: DependencyRef[] }
  | { ok: false; errors: FieldError[] };

export function isPlainObject(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseMonitorBody(
  body: unknown,
  defaults: Readonly<MonitorDefaults>,
  previous: MonitorConfig | null,
): ParseResult {
  if (!isPlainObject(body)) return { ok: false, errors: [{ field: '', message: 'a monitor must be a JSON object' }] };
  const raw: Plain = { ...body };
  for (const f of READ_ONLY_FIELDS) delete raw[f];

  // 1. Defaults.
  const kind = raw.kind as MonitorKind;
  const kindKnown = (MONITOR_KINDS as readonly string[]).includes(kind);
  const filled: Plain = withDefaults(raw, commonDefaults(defaults, kind));
  const missing: FieldError[] = [];
  if (raw.name === undefined) missing.push({ field: 'name', message: 'required' });
  if (raw.kind === undefined) missing.push({ field: 'kind', message: 'required' });
  // Settings under another kind's key are a mistake to name, not to validate.
  for (const other of MONITOR_KINDS) {
    if (other === kind || raw[other] === undefined) continue;
    delete filled[other];
    missing.push({
      field: other,
      message: kindKnown ? `settings for kind ${other} do not belong to a ${kind} monitor` : 'unknown field',
    });
  }
  if (kindKnown && raw[kind] !== undefined && !isPlainObject(raw[kind])) {
    delete filled[kind];
    missing.push({ field: kind, message: `must be an object with the ${kind} settings` });
  }
  if (kindKnown && (raw[kind] === undefined || isPlainObject(raw[kind]))) {
    const given = (raw[kind] ?? {}) as Plain;
    for (const f of REQUIRED_KIND_FIELDS[kind]) {
      if (given[f] === undefined || given[f] === null) missing.push({ field: `${kind}.${f}`, message: 'required' });
    }
    filled[kind] = withDefaults(given, KIND_DEFAULTS[kind]);
  }

  // 2. Types and bounds; a field already reported missing is not reported twice.
  const { instance, errors } = checkDto(MonitorDto, filled);
  const missingFields = new Set(missing.map((e) => e.field));
  const typeErrors = errors.filter(
    (e) => !missingFields.has(e.field) && !(e.field === kind && raw[kind] === undefined),
  );
  const deps = parseDependencyRefs(filled.depends_on);
  if (!typeErrors.some((e) => e.field === 'depends_on')) typeErrors.push(...deps.errors);
  if (missing.length || typeErrors.length) {
    // 3 as well: a form shows every problem at once (an empty name and a bad URL together, issue 33).
    const known = [...missing, ...typeErrors];
    const more = kindKnown && isPlainObject(filled[kind]) ? rulesBeside(instance, raw, known) : [];
    return { ok: false, errors: [...known, ...more] };
  }

  // 3. Cross-field rules.
  const ruleErrors = monitorRuleErrors(instance, raw);
  if (ruleErrors.length) return { ok: false, errors: ruleErrors };

  // 4. Normalise.
  const probe = kindConfig(kind, orderedSettings(kind, filled[kind] as Plain));
  // One stored form of a pinned fingerprint, however it was pasted (the rule above accepted it).
  if ((probe.kind === 'http' || probe.kind === 'tls') && probe.settings.cert_sha256 !== null)
    probe.settings.cert_sha256 = normalizeCertSha256(probe.settings.cert_sha256);
  if (probe.kind === 'http') {
    const errs = normaliseHttp(probe.settings, previous?.kind === 'http' ? previous.settings : null);
    if (errs.length) return { ok: false, errors: errs };
  }
  if (probe.kind === 'redis' || probe.kind === 'postgres' || probe.kind === 'mysql') {
    const errs = normaliseUrlSecret(
      probe.kind,
      probe.settings,
      previous?.kind === probe.kind ? previous.settings : null,
    );
    if (errs.length) return { ok: false, errors: errs };
  }
  const common = Object.fromEntries(COMMON_FIELDS.map((f) => [f, filled[f]])) as Plain;
  const config: MonitorConfig = {
    ...(common as unknown as CommonSettings),
    slug: typeof raw.slug === 'string' ? raw.slug : '',
    tags: [...(filled.tags as string[])],
    channels: filled.channels === null ? null : [...(filled.channels as number[])],
    depends_on: [],
    locations: [...(filled.locations as string[])],
    slow_ms: filled.slow_ms === 0 ? null : (filled.slow_ms as number | null),
    muted_until: filled.muted_until === null ? null : parseIso(filled.muted_until),
    ...probe,
  };
  return { ok: true, config, slugGiven: typeof raw.slug === 'string', dependsOn: deps.refs };
}

/** Fields a rule compares with another: its verdict means nothing while that one is wrong. */
const RULE_INPUTS: Record<string, string[]> = {
  timeout_ms: ['interval_s'],
  retry_interval_s: ['interval_s'],
  interval_s: ['kind'],
};

/** `a.b[2].c` and `a.b.2.c` name the same field. */
const dotted = (field: string) => field.replace(/\[(\d+)\]/g, '.$1');

/**
 * The cross-field rules' errors on a body that also failed its type checks, for the fields not
 * already named (nor inside one that is). The rules expect checked types: one that meets a value
 * of the wrong shape (headers that are not a list) may throw, and then says nothing more; the
 * type errors already tell the caller what to fix first.
 */
function rulesBeside(instance: MonitorDto, raw: Plain, known: FieldError[]): FieldError[] {
  const named = known.map((e) => dotted(e.field));
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
  const covered = (field: string) =>
    [field, ...(RULE_INPUTS[field] ?? [])].some((f) => named.some((n) => related(f, n)));
  try {
    return monitorRuleErrors(instance, raw).filter((e) => !covered(dotted(e.field)));
  } catch {
    return [];
  }
}

/** Kind settings in a stable order: required fields first, then the spec's order of the rest. */
function orderedSettings(kind: MonitorKind, given: Plain): KindSettings[MonitorKind] {
  const order = [...REQUIRED_KIND_FIELDS[kind], ...Object.keys(KIND_DEFAULTS[kind])];
  return structuredClone(Object.fromEntries(order.map((k) => [k, given[k]]))) as unknown as KindSettings[MonitorKind];
}

function normaliseHttp(s: HttpSettings, previous: HttpSettings | null): FieldError[] {
  const creds = extractUrlCredentials(s.url);
  if (creds) {
    if (s.auth !== null)
      return [{ field: 'http.url', message: 'credentials are given both in the URL and in auth; keep one' }];
    if (creds.username.includes(':'))
      return [{ field: 'http.url', message: 'the user name in the URL must not contain ":"' }];
    s.url = creds.url;
    s.auth = { type: 'basic', username: creds.username, password: creds.password };
  }
  s.headers = forceSecretHeaders(s.headers.map((h) => ({ name: h.name, value: h.value, secret: h.secret ?? false })));
  if (s.auth?.type === 'basic') s.auth = { type: 'basic', username: s.auth.username, password: s.auth.password };
  if (s.auth?.type === 'bearer') s.auth = { type: 'bearer', token: s.auth.token };
  s.json = s.json.map((r) =>
    r.value === undefined ? { path: r.path, op: r.op } : { path: r.path, op: r.op, value: r.value },
  );
  return keepMaskedSecrets(s, previous);
}

/**
 * PATCH: the stored monitor (answer-shaped, with real secrets) with the patch on top. Kind
 * settings merge field by field; a change of kind starts the new kind's settings afresh.
 */
export function mergePatch(stored: Plain, patch: unknown): Plain {
  requireObjectBody(patch);
  // Merge over the masked secrets, never the real ones: a stored secret then survives only through
  // the keep-rule, so a patch that points the URL elsewhere must send the secret again.
  const out: Plain = { ...stored };
  const oldKind = stored.kind as string;
  if (isPlainObject(out[oldKind])) out[oldKind] = maskSecrets(out[oldKind], KIND_SECRETS[oldKind as MonitorKind]);
  const newKind = (patch.kind ?? oldKind) as string;
  if (newKind !== oldKind) delete out[oldKind];
  for (const [k, v] of Object.entries(patch)) {
    if (
      (MONITOR_KINDS as readonly string[]).includes(k) &&
      isPlainObject(v) &&
      isPlainObject(out[k]) &&
      k === newKind
    ) {
      out[k] = { ...(out[k] as Plain), ...v };
    } else if ((MONITOR_KINDS as readonly string[]).includes(k) && v === null && k === newKind) {
      out[k] = {};
    } else {
      out[k] = v;
    }
  }
  return out;
}
