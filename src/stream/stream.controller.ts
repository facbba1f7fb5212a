import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentCaller, Scope } from '../common/access/access';
import type { Caller } from '../common/access/caller';
import type { AppRequest } from '../common/access/request-context';
import { API_ROOT } from '../common/http/routes';
import { StreamHub } from './stream.hub';

@Controller(`${API_ROOT}/stream`)
export class StreamController {
  constructor(private readonly hub: StreamHub) {}

  /** Server-Sent Events (docs/stream.md); the response stays open, written by the hub. */
  @Get()
  @Scope('read')
  open(@Req() req: AppRequest, @Res() res: Response, @CurrentCaller() caller: Caller): void {
    this.hub.open(req, res, caller);
  }
}
