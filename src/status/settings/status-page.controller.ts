import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentCaller, Scope } from '../../common/access/access';
import type { Caller } from '../../common/access/caller';
import { API_ROOT } from '../../common/http/routes';
import { readRawBody } from '../uploads/raw-body';
import type { Range } from './look';
import { StatusPageAnswer, StatusPageService, UPLOAD_MAX } from './status-page.service';

/** The owner's status page routes (spec "Status page"). Logo and icon bodies are raw images. */
@Controller(`${API_ROOT}/status-page`)
export class StatusPageController {
  constructor(private readonly service: StatusPageService) {}

  @Get()
  get(): Promise<StatusPageAnswer> {
    return this.service.get();
  }

  @Put()
  @Scope('write')
  put(@Body() body: unknown, @CurrentCaller() caller: Caller): Promise<StatusPageAnswer> {
    return this.service.put(body, caller);
  }

  @Put('logo')
  @Scope('write')
  async putLogo(@Req() req: Request, @CurrentCaller() caller: Caller): Promise<{ ok: true; v: string; url: string }> {
    return this.service.putLogo(req.headers['content-type'], await readRawBody(req, UPLOAD_MAX), caller);
  }

  @Delete('logo')
  @Scope('write')
  deleteLogo(@CurrentCaller() caller: Caller): Promise<{ ok: true }> {
    return this.service.deleteLogo(caller);
  }

  @Put('icon')
  @Scope('write')
  async putIcon(
    @Req() req: Request,
    @Query('logo') logo: unknown,
    @CurrentCaller() caller: Caller,
  ): Promise<{ ok: true; v: string; url: string }> {
    return this.service.putIcon(req.headers['content-type'], await readRawBody(req, UPLOAD_MAX), logo, caller);
  }

  @Post('preview')
  @Scope('write')
  @HttpCode(200)
  preview(@Body() body: unknown): Promise<{ html: string; range: Range }> {
    return this.service.preview(body);
  }
}
