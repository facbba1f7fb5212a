/**
 * Kuma 1.x's JSON backup (Settings → Backup → Export; removed in 2.0): `{version, notificationList,
 * monitorList, proxyList}`, each monitor being Kuma's `Monitor.toJSON()` (server/model/monitor.js
 * at tag 1.23.9, commit 621419e4341995bd4dc35111bc4342d534adf455), whose keys are partly camelCase.
 * This turns it into the rows of the database (kuma-data.ts), so one mapping serves both. Pure.
 */
import { ApiError } from '../../common/http/api-error';
import { emptyKumaData, KumaData, KumaRow } from './kuma-data';

/** toJSON key → `monitor` column, where they differ. */
const COLUMN_OF: Record<string, string> = {
  retryInterval: 'retry_interval',
  resendInterval: 'resend_interval',
  ignoreTls: 'ignore_tls',
  upsideDown: 'upside_down',
  invertKeyword: 'invert_keyword',
  packetSize: 'packet_size',
  pushToken: 'push_token',
  authMethod: 'auth_method',
  jsonPath: 'json_path',
  expectedValue: 'expected_value',
  mqttTopic: 'mqtt_topic',
  mqttSuccessMessage: 'mqtt_success_message',
  mqttUsername: 'mqtt_username',
  mqttPassword: 'mqtt_password',
  databaseConnectionString: 'database_connection_string',
  databaseQuery: 'database_query',
  grpcUrl: 'grpc_url',
  grpcServiceName: 'grpc_service_name',
  grpcEnableTls: 'grpc_enable_tls',
  grpcMethod: 'grpc_method',
  grpcBody: 'grpc_body',
  httpBodyEncoding: 'http_body_encoding',
  expiryNotification: 'expiry_notification',
};

const bad = (message: string) => ApiError.invalid([{ field: 'file', message }]);
const isPlain = (v: unknown): v is KumaRow => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readKumaBackup(text: string): KumaData {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw bad(`not valid JSON (${(err as Error).message.slice(0, 120)}), so not a Kuma backup`);
  }
  if (!isPlain(doc) || !Array.isArray(doc.monitorList) || !Array.isArray(doc.notificationList))
    throw bad('JSON, but not an Uptime Kuma backup: it has no monitorList and notificationList');
  const version = typeof doc.version === 'string' ? doc.version.slice(0, 40) : 'unknown';
  if (!/^1\.\d+\.\d+/.test(version))
    throw bad(
      `an Uptime Kuma backup of an unknown version (${version}): this importer reads the backups of Kuma 1.x; from Kuma 2.x import kuma.db itself`,
    );
  const data = emptyKumaData(`Uptime Kuma ${version} backup`);
  const tagIds = new Map<string, number>();
  doc.notificationList.forEach((n) => {
    if (isPlain(n)) data.notifications.push({ ...n });
  });
  for (const m of doc.monitorList) {
    if (!isPlain(m)) continue;
    const row: KumaRow = {};
    for (const [k, v] of Object.entries(m)) row[COLUMN_OF[k] ?? k] = v;
    // The backup carries the codes as a list; the database as JSON text.
    row.accepted_statuscodes_json = Array.isArray(m.accepted_statuscodes)
      ? JSON.stringify(m.accepted_statuscodes)
      : m.accepted_statuscodes_json;
    data.monitors.push(row);
    const id = typeof m.id === 'number' ? m.id : NaN;
    if (isPlain(m.notificationIDList)) {
      for (const [nid, on] of Object.entries(m.notificationIDList))
        if (on) data.monitorNotifications.push({ monitor_id: id, notification_id: Number(nid) });
    }
    if (Array.isArray(m.tags)) {
      for (const t of m.tags) {
        if (!isPlain(t) || typeof t.name !== 'string') continue;
        let tagId = tagIds.get(t.name);
        if (tagId === undefined) {
          tagId = typeof t.tag_id === 'number' ? t.tag_id : -(tagIds.size + 1);
          tagIds.set(t.name, tagId);
          data.tags.push({ id: tagId, name: t.name });
        }
        data.monitorTags.push({ monitor_id: id, tag_id: tagId, value: typeof t.value === 'string' ? t.value : null });
      }
    }
  }
  return data;
}
