/** The URL of each database kind and of mqtt: its schemes, default port and what its path names (service-url.ts). */
import type { UrlRules } from './service-url';

export const REDIS_URL: UrlRules = { schemes: ['redis', 'rediss'], defaultPort: 6379, database: 'number' };
export const POSTGRES_URL: UrlRules = { schemes: ['postgres', 'postgresql'], defaultPort: 5432, database: 'name' };
export const MYSQL_URL: UrlRules = { schemes: ['mysql', 'mariadb'], defaultPort: 3306, database: 'name' };
export const MQTT_URL: UrlRules = {
  schemes: ['mqtt', 'mqtts'],
  defaultPort: 1883,
  schemePorts: { mqtts: 8883 },
  database: 'none',
};
