import type { Request } from 'express';
import type { Caller } from './caller';

/** What the guard attaches to a request. */
export interface AppRequest extends Request {
  caller?: Caller;
  clientIp?: string;
}
