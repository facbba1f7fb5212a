/**
 * POST /import/kuma (docs/import-kuma.md): an Uptime Kuma database or backup, uploaded, read
 * (kuma-file.ts), mapped (kuma-plan.ts) and handed to POST /import's own service, so it is checked,
 * written and announced exactly as an import of an export document is: one transaction, the engine
 * schedules the monitors at once, secrets sealed under this service's key.
 *
 * 1. Map the file; ask POST /import for a dry run.
 * 2. Items it refuses are taken out and reported as skipped with its words; ask again (a channel
 *    taken out changes the monitors naming it) until the answer has no errors.
 * 3. With `apply`, run it for real: everything left goes in one transaction, or nothing.
 */
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Request } from 'express';
import { ApiError } from '../../common/http/api-error';
import { admitStreamedBody } from '../../common/http/idempotency';
import type { Caller } from '../../common/access/caller';
import { randomToken, sha256 } from '../../common/access/tokens';
import { MASK } from '../../common/secrets/secrets';
import { CHANNEL_KINDS } from '../../channels/channel-kind';
import { ChannelsService } from '../../channels/channels.service';
import { MONITOR_KINDS } from '../../probes/kinds';
import { hasErrors, IMPORT_SECTIONS } from '../import-document';
import { ImportService } from '../import.service';
import { readKumaFile } from './kuma-file';
import { KumaPlan, planKumaImport } from './kuma-plan';
import { dropRefused, finishReport, KumaReport } from './kuma-report';

/** An upload past this is refused: `farsight import-kuma` sends a copy without Kuma's check history, far below it. */
export const KUMA_UPLOAD_MAX = 256 * 1024 * 1024;
/** Each round takes out at least one refused item; a file whose items keep failing stops here. */
const MAX_ROUNDS = 5;

@Injectable()
export class KumaImportService {
  constructor(
    private readonly imports: ImportService,
    private readonly channels: ChannelsService,
  ) {}

  /** Reads the request's body into a private temporary file, imports it, and removes the file. */
  async upload(req: Request, query: Record<string, unknown>, caller: Caller | null): Promise<KumaReport> {
    const apply = readApply(query);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-kuma-upload-'));
    try {
      const file = path.join(dir, 'upload');
      // Idempotency-Key: the upload is compared by its bytes, once they are all read and before any work.
      await admitStreamedBody(req, await saveBody(req, file));
      return await this.run(file, apply, caller);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  async run(file: string, apply: boolean, caller: Caller | null): Promise<KumaReport> {
    const data = await readKumaFile(file);
    const stored = this.channels.all();
    const plan = planKumaImport(
      data,
      { monitorKinds: MONITOR_KINDS, channelKinds: CHANNEL_KINDS, sections: IMPORT_SECTIONS },
      {
        tokenHash: sha256,
        // A webhook stored under this name with the same URL keeps its secret; a new one gets one of its own.
        webhookSecret: (name, url) => {
          const same = stored.find((c) => c.name === name && c.kind === 'webhook');
          return same && (same.config as { url?: unknown }).url === url ? MASK : randomToken(24);
        },
      },
    );
    let answer = await this.dryRun(plan, caller);
    if (apply && !hasErrors(answer)) {
      answer = await this.imports.run({ ...plan.document, dry_run: false }, caller);
      // Another request changed something between the check and the write: say so, write nothing.
      if (hasErrors(answer))
        throw new ApiError('conflict', 'the setup changed while importing; nothing was written: run the import again');
    }
    return finishReport(plan, answer);
  }

  private async dryRun(plan: KumaPlan, caller: Caller | null) {
    for (let round = 1; ; round++) {
      const answer = await this.imports.run({ ...plan.document, dry_run: true }, caller);
      if (!hasErrors(answer) || !dropRefused(plan, answer) || round === MAX_ROUNDS) return answer;
    }
  }
}

function readApply(query: Record<string, unknown>): boolean {
  for (const k of Object.keys(query))
    if (k !== 'apply')
      throw ApiError.invalid([{ field: k.slice(0, 60), message: 'unknown parameter; the only one is apply' }]);
  const v = query.apply;
  if (v === undefined || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  throw ApiError.invalid([{ field: 'apply', message: 'must be true or false (default false: a dry run)' }]);
}

/** Streams the body to `file`, refusing one past KUMA_UPLOAD_MAX or an empty one; gives the bytes' SHA-256. */
function saveBody(req: Request, file: string): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > KUMA_UPLOAD_MAX) {
    req.res?.setHeader('Connection', 'close');
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(file, { mode: 0o600 });
    const digest = createHash('sha256');
    let size = 0;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(out);
      out.destroy();
      req.res?.setHeader('Connection', 'close');
      req.resume();
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      digest.update(chunk);
      if (size > KUMA_UPLOAD_MAX) fail(tooLarge());
    });
    req.once('aborted', () => fail(new ApiError('bad_request', 'the request was aborted')));
    out.once('error', (err) => fail(err));
    out.once('finish', () => {
      if (failed) return;
      if (size === 0)
        reject(ApiError.invalid([{ field: 'body', message: 'the body is empty: send kuma.db or a Kuma JSON backup' }]));
      else resolve(digest.digest());
    });
    req.pipe(out);
  });
}

const tooLarge = () =>
  ApiError.invalid([
    {
      field: 'body',
      message: `must be at most ${KUMA_UPLOAD_MAX / 1024 / 1024} MB; \`farsight import-kuma\` sends a copy without Kuma's check history`,
    },
  ]);
