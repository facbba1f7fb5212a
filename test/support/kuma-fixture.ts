/**
 * Uptime Kuma databases built in the test, from Kuma's own schema (never a database copied from
 * elsewhere). The CREATE TABLE statements are Kuma's, as they stand in a 1.23 database: the
 * template db/kuma.db of tag 1.23.9 (commit 621419e4341995bd4dc35111bc4342d534adf455) after
 * db/patch1..10.sql and the patch files of server/database.js `patchList` (the same commit), dumped
 * with `sqlite3 .schema`; only the tables the importer reads are kept. A 2.x database is that plus
 * Kuma's knex migrations (db/knex_migrations/*.js at commit 6398a9581d1c3c427a7536559f47ccf45dac08b4),
 * of which the ones adding columns the importer reads are written out as SQL below.
 */
import * as sqlite3 from 'sqlite3';

const SCHEMA_123 = `
CREATE TABLE [notification](
  [id] INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  [name] VARCHAR(255),
  [active] BOOLEAN NOT NULL DEFAULT 1,
  [user_id] INTEGER NOT NULL, is_default BOOLEAN default 0 NOT NULL, config TEXT);
CREATE TABLE [monitor_notification](
  [id] INTEGER PRIMARY KEY NOT NULL,
  [monitor_id] INTEGER NOT NULL REFERENCES [monitor]([id]) ON DELETE CASCADE ON UPDATE CASCADE,
  [notification_id] INTEGER NOT NULL REFERENCES [notification]([id]) ON DELETE CASCADE ON UPDATE CASCADE);
CREATE TABLE IF NOT EXISTS "monitor" (
	id INTEGER not null primary key autoincrement,
	name VARCHAR(150),
	active BOOLEAN default 1 not null,
	user_id INTEGER references user on update cascade on delete set null,
	interval INTEGER default 20 not null,
	url TEXT,
	type VARCHAR(20),
	weight INTEGER default 2000,
	hostname VARCHAR(255),
	port INTEGER,
	created_date DATETIME default (DATETIME('now')) not null,
	keyword VARCHAR(255),
	maxretries INTEGER NOT NULL DEFAULT 0,
	ignore_tls BOOLEAN default 0 not null,
	upside_down BOOLEAN default 0 not null,
	maxredirects INTEGER default 10 not null,
	accepted_statuscodes_json TEXT default '["200-299"]' not null
, dns_resolve_type VARCHAR(5), dns_resolve_server VARCHAR(255), dns_last_result VARCHAR(255), retry_interval INTEGER default 0 not null, push_token VARCHAR(20) DEFAULT NULL, method TEXT default 'GET' not null, body TEXT default null, headers TEXT default null, basic_auth_user TEXT default null, basic_auth_pass TEXT default null, docker_host INTEGER REFERENCES docker_host(id), docker_container VARCHAR(255), proxy_id INTEGER REFERENCES proxy(id), expiry_notification BOOLEAN default 1, mqtt_topic TEXT, mqtt_success_message VARCHAR(255), mqtt_username VARCHAR(255), mqtt_password VARCHAR(255), database_connection_string VARCHAR(2000), database_query TEXT, auth_method VARCHAR(250), auth_domain TEXT, auth_workstation TEXT, grpc_url VARCHAR(255) default null, grpc_protobuf TEXT default null, grpc_body TEXT default null, grpc_metadata TEXT default null, grpc_method VARCHAR(255) default null, grpc_service_name VARCHAR(255) default null, grpc_enable_tls BOOLEAN default 0 not null, radius_username VARCHAR(255), radius_password VARCHAR(255), radius_calling_station_id VARCHAR(50), radius_called_station_id VARCHAR(50), radius_secret VARCHAR(255), resend_interval INTEGER default 0 not null, packet_size INTEGER DEFAULT 56 NOT NULL, game VARCHAR(255), http_body_encoding VARCHAR(25), description TEXT default null, tls_ca TEXT default null, tls_cert TEXT default null, tls_key TEXT default null, parent INTEGER REFERENCES [monitor] ([id]) ON DELETE SET NULL ON UPDATE CASCADE, invert_keyword BOOLEAN default 0 not null, json_path TEXT, expected_value VARCHAR(255), kafka_producer_topic VARCHAR(255), kafka_producer_brokers TEXT, kafka_producer_sasl_options TEXT, kafka_producer_message TEXT, oauth_client_id TEXT default null, oauth_client_secret TEXT default null, oauth_token_url TEXT default null, oauth_scopes TEXT default null, oauth_auth_method TEXT default null, timeout DOUBLE default 0 not null, gamedig_given_port_only BOOLEAN default 1 not null, kafka_producer_ssl BOOLEAN default 0 NOT NULL, kafka_producer_allow_auto_topic_creation BOOLEAN default 0 NOT NULL);
CREATE TABLE tag (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	name VARCHAR(255) NOT NULL,
    color VARCHAR(255) NOT NULL,
	created_date DATETIME DEFAULT (DATETIME('now')) NOT NULL
);
CREATE TABLE monitor_tag (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	monitor_id INTEGER NOT NULL,
	tag_id INTEGER NOT NULL,
	value TEXT,
	CONSTRAINT FK_tag FOREIGN KEY (tag_id) REFERENCES tag(id) ON DELETE CASCADE ON UPDATE CASCADE,
	CONSTRAINT FK_monitor FOREIGN KEY (monitor_id) REFERENCES monitor(id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE IF NOT EXISTS "setting"
(
    id INTEGER
        primary key autoincrement,
    key VARCHAR(200) not null
        unique,
    value TEXT,
    type VARCHAR(20)
);
CREATE TABLE \`group\`
(
    id           INTEGER      not null
        constraint group_pk
            primary key autoincrement,
    name         VARCHAR(255) not null,
    created_date DATETIME              default (DATETIME('now')) not null,
    public       BOOLEAN               default 0 not null,
    active       BOOLEAN               default 1 not null,
    weight       BOOLEAN      NOT NULL DEFAULT 1000
, status_page_id INTEGER);
CREATE TABLE [monitor_group]
(
    [id]         INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    [monitor_id] INTEGER                           NOT NULL REFERENCES [monitor] ([id]) ON DELETE CASCADE ON UPDATE CASCADE,
    [group_id]   INTEGER                           NOT NULL REFERENCES [group] ([id]) ON DELETE CASCADE ON UPDATE CASCADE,
    weight BOOLEAN NOT NULL DEFAULT 1000
, send_url BOOLEAN DEFAULT 0 NOT NULL);
CREATE TABLE docker_host (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	user_id INT NOT NULL,
	docker_daemon VARCHAR(255),
	docker_type VARCHAR(255),
	name VARCHAR(255)
);
CREATE TABLE [status_page](
    [id] INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    [slug] VARCHAR(255) NOT NULL UNIQUE,
    [title] VARCHAR(255) NOT NULL,
    [description] TEXT,
    [icon] VARCHAR(255) NOT NULL,
    [theme] VARCHAR(30) NOT NULL,
    [published] BOOLEAN NOT NULL DEFAULT 1,
    [search_engine_index] BOOLEAN NOT NULL DEFAULT 1,
    [show_tags] BOOLEAN NOT NULL DEFAULT 0,
    [password] VARCHAR,
    [created_date] DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    [modified_date] DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
, footer_text TEXT, custom_css TEXT, show_powered_by BOOLEAN NOT NULL DEFAULT 1, google_analytics_tag_id VARCHAR, show_certificate_expiry BOOLEAN default 0 NOT NULL);
CREATE TABLE [maintenance] (
    [id] INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    [title] VARCHAR(150) NOT NULL,
    [description] TEXT NOT NULL,
    [user_id] INTEGER REFERENCES [user]([id]) ON DELETE SET NULL ON UPDATE CASCADE,
    [active] BOOLEAN NOT NULL DEFAULT 1,
    [strategy] VARCHAR(50) NOT NULL DEFAULT 'single',
    [start_date] DATETIME,
    [end_date] DATETIME,
    [start_time] TIME,
    [end_time] TIME,
    [weekdays] VARCHAR2(250) DEFAULT '[]',
    [days_of_month] TEXT DEFAULT '[]',
    [interval_day] INTEGER
, cron TEXT, timezone VARCHAR(255), duration INTEGER);
CREATE TABLE monitor_maintenance (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    monitor_id INTEGER NOT NULL,
    maintenance_id INTEGER NOT NULL,
    CONSTRAINT FK_maintenance FOREIGN KEY (maintenance_id) REFERENCES maintenance (id) ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT FK_monitor FOREIGN KEY (monitor_id) REFERENCES monitor (id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE [heartbeat](
  [id] INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  [important] BOOLEAN NOT NULL DEFAULT 0,
  [monitor_id] INTEGER NOT NULL REFERENCES [monitor]([id]) ON DELETE CASCADE ON UPDATE CASCADE,
  [status] BOOLEAN NOT NULL,
  [msg] TEXT,
  [time] DATETIME NOT NULL, ping INTEGER, duration INTEGER NOT NULL DEFAULT 0);
`;

/** The knex migrations (2.x) adding the columns the importer reads, as SQLite runs them. */
const MIGRATIONS_2X: [name: string, sql: string][] = [
  [
    '2023-10-08-0000-mqtt-query.js',
    `ALTER TABLE monitor ADD COLUMN mqtt_check_type VARCHAR(255) NOT NULL DEFAULT 'keyword'`,
  ],
  ['2024-04-26-0000-snmp-monitor.js', 'ALTER TABLE monitor ADD COLUMN json_path_operator VARCHAR(255) DEFAULT NULL'],
  ['2024-08-24-0000-conditions.js', `ALTER TABLE monitor ADD COLUMN conditions TEXT NOT NULL DEFAULT '[]'`],
  ['2025-01-01-0000-add-smtp.js', 'ALTER TABLE monitor ADD COLUMN smtp_security VARCHAR(255) DEFAULT NULL'],
  ['2025-06-13-0000-maintenance-add-last-start.js', 'ALTER TABLE maintenance ADD COLUMN last_start_date DATETIME'],
  ['2026-05-20-0000-add-bearer-token.js', 'ALTER TABLE monitor ADD COLUMN bearer_token TEXT DEFAULT NULL'],
];

/** The patch files a 1.23 database lists in its `databasePatchedFiles` setting (server/database.js, tag 1.23.9). */
const PATCHED_123 = [
  'patch-setting-value-type.sql', 'patch-improve-performance.sql', 'patch-2fa.sql', 'patch-add-retry-interval-monitor.sql',
  'patch-incident-table.sql', 'patch-group-table.sql', 'patch-monitor-push_token.sql',
  'patch-http-monitor-method-body-and-headers.sql', 'patch-2fa-invalidate-used-token.sql',
  'patch-notification_sent_history.sql', 'patch-monitor-basic-auth.sql', 'patch-add-docker-columns.sql',
  'patch-status-page.sql', 'patch-proxy.sql', 'patch-monitor-expiry-notification.sql', 'patch-status-page-footer-css.sql',
  'patch-added-mqtt-monitor.sql', 'patch-add-clickable-status-page-link.sql', 'patch-add-sqlserver-monitor.sql',
  'patch-add-other-auth.sql', 'patch-grpc-monitor.sql', 'patch-add-radius-monitor.sql',
  'patch-monitor-add-resend-interval.sql', 'patch-ping-packet-size.sql', 'patch-maintenance-table2.sql',
  'patch-add-gamedig-monitor.sql', 'patch-add-google-analytics-status-page-tag.sql', 'patch-http-body-encoding.sql',
  'patch-add-description-monitor.sql', 'patch-api-key-table.sql', 'patch-monitor-tls.sql', 'patch-maintenance-cron.sql',
  'patch-add-parent-monitor.sql', 'patch-add-invert-keyword.sql', 'patch-added-json-query.sql',
  'patch-added-kafka-producer.sql', 'patch-add-certificate-expiry-status-page.sql', 'patch-monitor-oauth-cc.sql',
  'patch-add-timeout-monitor.sql', 'patch-add-gamedig-given-port.sql', 'patch-notification-config.sql',
  'patch-fix-kafka-producer-booleans.sql', 'patch-timeout.sql',
]; // prettier-ignore

export type KumaRows = Partial<
  Record<
    | 'monitor'
    | 'notification'
    | 'monitor_notification'
    | 'tag'
    | 'monitor_tag'
    | 'maintenance'
    | 'monitor_maintenance'
    | 'status_page'
    | 'group'
    | 'monitor_group'
    | 'docker_host'
    | 'setting'
    | 'heartbeat',
    Record<string, unknown>[]
  >
>;

export interface KumaDbOptions {
  version: '1.23' | '2.x';
  /** 1.x only: leave these patches out of `databasePatchedFiles` (a database older than 1.23). */
  withoutPatches?: string[];
  /** Leave the database in WAL mode with its -wal file beside it (as a running Kuma does). */
  keepWal?: boolean;
}

/**
 * Writes a Kuma database of `version` to `file` holding `rows` (column → value, as Kuma's server
 * writes them). Resolves to a function closing it: with `keepWal` the connection stays open until
 * then (as a running Kuma's does), its writes in the -wal file beside the database.
 */
export async function buildKumaDb(file: string, rows: KumaRows, opts: KumaDbOptions): Promise<() => Promise<void>> {
  const conn = await new Promise<sqlite3.Database>((resolve, reject) => {
    const c = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(c)));
  });
  const exec = (sql: string) => new Promise<void>((res, rej) => conn.exec(sql, (e) => (e ? rej(e) : res())));
  const run = (sql: string, p: unknown[]) =>
    new Promise<void>((res, rej) => conn.run(sql, p, (e) => (e ? rej(e) : res())));
  // Kuma runs SQLite in WAL mode (server/database.js: PRAGMA journal_mode = WAL).
  await exec('PRAGMA journal_mode = WAL');
  if (opts.keepWal) await exec('PRAGMA wal_autocheckpoint = 0');
  await exec(SCHEMA_123);
  const patched = Object.fromEntries(
    PATCHED_123.filter((p) => !opts.withoutPatches?.includes(p)).map((p) => [p, true]),
  );
  await run(`INSERT INTO setting (key, value, type) VALUES ('databasePatchedFiles', ?, NULL)`, [
    JSON.stringify(patched),
  ]);
  await run(`INSERT INTO setting (key, value, type) VALUES ('database_version', '10', NULL)`, []);
  if (opts.version === '2.x') {
    // knex's own bookkeeping table, as knex creates it for SQLite.
    await exec(
      'CREATE TABLE `knex_migrations` (`id` integer not null primary key autoincrement, `name` varchar(255), `batch` integer, `migration_time` datetime)',
    );
    for (const [name, sql] of MIGRATIONS_2X) {
      await exec(sql);
      await run('INSERT INTO knex_migrations (name, batch, migration_time) VALUES (?, 1, ?)', [name, Date.now()]);
    }
  }
  for (const [table, list] of Object.entries(rows)) {
    for (const row of list ?? []) {
      const cols = Object.keys(row);
      await run(
        `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        cols.map((c) => row[c]),
      );
    }
  }
  const close = () => new Promise<void>((res, rej) => conn.close((e) => (e ? rej(e) : res())));
  if (opts.keepWal) return close;
  await close();
  return async () => undefined;
}
