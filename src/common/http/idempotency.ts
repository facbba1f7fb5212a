/**
 * Idempotency-Key on POST (IETF draft "The Idempotency-Key HTTP Header Field"): the same caller
 * repeating a key with the same request within 24 h gets the first answer (status and body) again
 * and the work is not repeated. The same key with a different request is 422; a repeat while
 * the first is still running is 409. Answers of 5xx and 429 are not kept (nothing was decided).
 *
 * No secret sits in the idempotency table for a day, in either direction:
 * - requests that carry a password or a code (whose hash would be kept, and could be guessed
 *   offline) come to routes marked @NeverReplayed, which ignore the header;
 * - answers that carry a secret shown once (an API key, a ping URL, recovery codes: a ShownOnce,
 *   marked where the secret is made) are not kept: the work is done once all the same, and a
 *   repeat gets a 409 `conflict` that names what was withheld and how to get a new one. The
 *   spec's "returns the first answer" cannot hold for an answer that must be shown only once; "does
 *   not repeat the work" still does (docs/api.md, "Idempotency").
 */
import {
  CallHandler,
  ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  NestInterceptor,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  SetMetadata,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import { from, Observable, throwError } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import { callerId } from '../access/caller';
import type { AppRequest } from '../access/request-context';
import { Database } from '../../db/database';
import { ApiError } from './api-error';
import { CLOCK, Clock } from '../clock';
import { UpkeepJob } from '../upkeep';
import { toErrorResponse } from './error-envelope';
import { shownOnceIn, Withheld } from '../secrets/shown-once';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
const NEVER_REPLAYED = 'idempotency:never';

/**
 * Idempotency-Key is ignored, nothing is stored: the route's requests carry a password or a code,
 * or the route is idempotent by a key of its own (an agent's results, by their seq).
 */
export const NeverReplayed = () => SetMetadata(NEVER_REPLAYED, true);

const STREAMED_BODY = 'idempotency:streamed';
const ADMIT_STREAMED = Symbol('idempotency: admit a streamed body');
interface StreamedRequest {
  [ADMIT_STREAMED]?: (digest: Buffer) => Promise<void>;
}

/**
 * The route reads its body itself (an upload streamed to disk, not parsed): the interceptor cannot
 * see it before the handler runs, so the handler calls `admitStreamedBody` with the body's SHA-256
 * once it has read it, before doing any work. A repeat is answered from there; the same key with
 * other bytes is a 422, as for a parsed body.
 */
export const StreamedBody = () => SetMetadata(STREAMED_BODY, true);

/** Called by a @StreamedBody handler with the SHA-256 of the body it read; a no-op without Idempotency-Key. */
export async function admitStreamedBody(req: Request, digest: Buffer): Promise<void> {
  await (req as Request & StreamedRequest)[ADMIT_STREAMED]?.(digest);
}

/** Thrown to answer with a stored response; the error filter renders it verbatim. */
export class StoredAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly running = new Set<string>();
  private readonly pruning = new UpkeepJob('idempotency prune', { everyMs: 3600_000 }, () => this.prune());

  constructor(
    private readonly db: Database,
    private readonly reflector: Reflector,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.pruning.start();
  }

  onApplicationShutdown(): void {
    this.pruning.stop();
  }

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<AppRequest & StreamedRequest>();
    const key = req.headers['idempotency-key'];
    if (req.method !== 'POST' || key === undefined || !req.caller) return next.handle();
    if (this.reflector.get<boolean>(NEVER_REPLAYED, ctx.getHandler()) === true) return next.handle();
    if (typeof key !== 'string' || !KEY_SHAPE.test(key)) {
      throw new ApiError('bad_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const caller = callerId(req.caller);
    const slot = `${caller}\n${key}`;
    const okStatus = this.reflector.get<number>(HTTP_CODE_METADATA, ctx.getHandler()) ?? HttpStatus.CREATED;
    // The request hash once the request is admitted (looked up, not a repeat, not running): only
    // then is its answer kept. A streamed body is admitted by the handler once it has read it.
    let admitted: string | null = null;
    const admit = async (hash: string): Promise<void> => {
      const stored = await this.lookup(caller, key, hash);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- StoredAnswer: the filter renders it verbatim
      if (stored) throw stored;
      if (this.running.has(slot)) {
        throw new ApiError('conflict', 'a request with this Idempotency-Key is still being processed');
      }
      this.running.add(slot);
      admitted = hash;
    };
    const handled = (): Observable<unknown> =>
      next.handle().pipe(
        mergeMap(async (body) => {
          if (admitted === null) return body;
          const withheld = shownOnceIn(body);
          if (withheld.length) {
            const refusal = toErrorResponse(new ApiError('conflict', withheldMessage(withheld)));
            await this.keep(caller, key, admitted, refusal.status, refusal.body);
          } else {
            await this.keep(caller, key, admitted, okStatus, body);
          }
          this.running.delete(slot);
          return body;
        }),
        catchError((err: unknown) => {
          const hash = admitted;
          if (hash === null) return throwError(() => err);
          const out = toErrorResponse(err);
          const done =
            out.status < 500 && out.status !== 429
              ? this.keep(caller, key, hash, out.status, out.body)
              : Promise.resolve();
          return from(done.finally(() => this.running.delete(slot))).pipe(mergeMap(() => throwError(() => err)));
        }),
      );

    if (this.reflector.get<boolean>(STREAMED_BODY, ctx.getHandler()) === true) {
      req[ADMIT_STREAMED] = (digest) => admit(requestHash(req, digest));
      return handled();
    }
    return from(admit(requestHash(req, null))).pipe(mergeMap(handled));
  }

  private async lookup(caller: string, key: string, hash: string): Promise<StoredAnswer | null> {
    const rows = await this.db.read<{ request_hash: string; status: number; body: string }[]>(
      'SELECT request_hash, status, body FROM idempotency WHERE caller = ? AND key = ? AND created_at > ?',
      [caller, key, this.clock.now() - IDEMPOTENCY_WINDOW_MS],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.request_hash !== hash) {
      throw new ApiError('invalid', 'this Idempotency-Key was already used with a different request', {
        field: 'Idempotency-Key',
        fields: [{ field: 'Idempotency-Key', message: 'already used with a different request' }],
      });
    }
    return new StoredAnswer(row.status, JSON.parse(row.body));
  }

  private async keep(caller: string, key: string, hash: string, status: number, body: unknown): Promise<void> {
    await this.db.tx((m) =>
      m.query(
        'INSERT OR REPLACE INTO idempotency (caller, key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        [caller, key, hash, status, JSON.stringify(body ?? null), this.clock.now()],
      ),
    );
  }

  async prune(): Promise<void> {
    await this.db.tx((m) =>
      m.query('DELETE FROM idempotency WHERE created_at <= ?', [this.clock.now() - IDEMPOTENCY_WINDOW_MS]),
    );
  }
}

/** The refusal kept in place of an answer that held secrets shown once. */
function withheldMessage(withheld: Withheld[]): string {
  const fields = [...new Set(withheld.map((w) => w.path.replace(/\[\d+\]/g, '')))];
  const again = [...new Set(withheld.map((w) => w.again))];
  return (
    'the first request with this Idempotency-Key was done, but its answer held a secret shown only once ' +
    `(${fields.join(', ')}), which is not kept to be shown again: ${again.join('; ')}`
  );
}

/**
 * Method, path and body: "the same request". A streamed body is given by its SHA-256 (`digest`),
 * taken by the handler that read it; a parsed one is hashed as JSON.
 */
function requestHash(req: AppRequest, digest: Buffer | null): string {
  const h = createHash('sha256').update(`${req.method} ${req.originalUrl}\n`);
  if (digest) h.update('streamed\n').update(digest);
  else h.update(JSON.stringify((req.body as unknown) ?? null));
  return h.digest('hex');
}
