import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { toErrorResponse } from './error-envelope';
import { StoredAnswer } from './idempotency';

/** The one exception filter: every error answer goes out in the spec's envelope. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly log = new Logger('http');

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (err instanceof StoredAnswer) {
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(err.status).json(err.body);
      return;
    }
    const out = toErrorResponse(err);
    if (out.unexpected) {
      const id = randomBytes(6).toString('hex');
      // The correlation id lets an operator find the stack without it ever reaching the client.
      this.log.error(`unexpected error [${id}]: ${err instanceof Error ? err.stack : String(err)}`);
      out.body.error.message = `internal error (reference ${id})`;
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
    res.status(out.status).json(out.body);
  }
}
