import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pinned certificates and tls_verify for tls monitors (issue 33): http monitors get `cert_sha256`
 * and tls monitors `tls_verify` and `cert_sha256`, with the values new monitors get by default
 * (verify; no pin), so every stored monitor has every setting its kind has. They are the last
 * settings of their kinds (monitor-defaults.ts), so appending them keeps the order new monitors
 * are written in.
 */
export class CertPins1768608000000 implements MigrationInterface {
  name = 'CertPins1768608000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE monitors SET settings = json_set(settings, '$.cert_sha256', json('null')) WHERE kind = 'http' AND json_type(settings, '$.cert_sha256') IS NULL`,
    );
    await q.query(
      `UPDATE monitors SET settings = json_set(settings, '$.tls_verify', json('true'), '$.cert_sha256', json('null')) WHERE kind = 'tls' AND json_type(settings, '$.tls_verify') IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE monitors SET settings = json_remove(settings, '$.cert_sha256') WHERE kind = 'http'`);
    await q.query(
      `UPDATE monitors SET settings = json_remove(settings, '$.tls_verify', '$.cert_sha256') WHERE kind = 'tls'`,
    );
  }
}
