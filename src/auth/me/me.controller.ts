import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentCaller, Scope, SessionOnly, StepUp } from '../../common/access/access';
import type { Caller } from '../../common/access/caller';
import { parseId } from '../../common/validation/ids';
import { NeverReplayed } from '../../common/http/idempotency';
import { Page } from '../../common/http/paging';
import type { AppRequest } from '../../common/access/request-context';
import { API_ROOT } from '../../common/http/routes';
import type { ShownOnce } from '../../common/secrets/shown-once';
import { EmptyDto } from '../../common/validation/validation';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { ChangePasswordDto, ReplaceTotpDto } from '../dto/me.dto';
import { MeCredentialsService, TotpOptions } from './me-credentials.service';
import { MeService, OwnerAnswer, SessionRow } from './me.service';
import { sessionIdOf } from '../sessions/session-caller';
import { clearSessionCookie } from '../sessions/session-cookie';
import { BlockedAddress, ThrottleService } from '../sign-in/throttle.service';

/**
 * Owner routes (spec "Owner routes"): session only, never an API key, except the blocked-address
 * list, which an admin key may read. Passkey routes live in passkeys/.
 */
@Controller(`${API_ROOT}/me`)
export class MeController {
  constructor(
    private readonly me: MeService,
    private readonly credentials: MeCredentialsService,
    private readonly throttle: ThrottleService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @SessionOnly()
  owner(@CurrentCaller() caller: Caller | null): Promise<OwnerAnswer> {
    return this.me.me(sessionIdOf(caller));
  }

  @Get('sessions')
  @SessionOnly()
  sessions(@CurrentCaller() caller: Caller | null): Promise<{ items: SessionRow[] }> {
    return this.me.sessions(sessionIdOf(caller));
  }

  @Post('sessions/revoke-others')
  @SessionOnly()
  @StepUp()
  @HttpCode(200)
  async revokeOthers(
    @CurrentCaller() caller: Caller | null,
    @Body() _body: EmptyDto,
  ): Promise<{ ok: true; signed_out: number }> {
    return { ok: true, signed_out: await this.me.revokeOthers(sessionIdOf(caller)) };
  }

  @Delete('sessions/:id')
  @SessionOnly()
  @StepUp()
  @HttpCode(200)
  async revoke(
    @Param('id') id: string,
    @CurrentCaller() caller: Caller | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ ok: true }> {
    const sessionId = parseId(id, 'session');
    await this.me.revoke(sessionId);
    if (sessionId === sessionIdOf(caller)) clearSessionCookie(res, this.config);
    return { ok: true };
  }

  @Post('password')
  @SessionOnly()
  @StepUp()
  @NeverReplayed()
  @HttpCode(200)
  async password(
    @Body() dto: ChangePasswordDto,
    @CurrentCaller() caller: Caller | null,
    @Req() req: AppRequest,
  ): Promise<{ ok: true; signed_out: number }> {
    return {
      ok: true,
      signed_out: await this.credentials.changePassword(dto, sessionIdOf(caller), req.clientIp ?? null),
    };
  }

  @Post('totp/options')
  @SessionOnly()
  @StepUp()
  @HttpCode(200)
  totpOptions(@CurrentCaller() caller: Caller | null, @Body() _body: EmptyDto): Promise<TotpOptions> {
    return this.credentials.totpOptions(sessionIdOf(caller));
  }

  @Post('totp')
  @SessionOnly()
  @StepUp()
  @NeverReplayed()
  @HttpCode(200)
  async totp(
    @Body() dto: ReplaceTotpDto,
    @CurrentCaller() caller: Caller | null,
  ): Promise<{ ok: true; signed_out: number }> {
    return { ok: true, signed_out: await this.credentials.replaceTotp(dto, sessionIdOf(caller)) };
  }

  @Post('recovery-codes')
  @SessionOnly()
  @StepUp()
  @HttpCode(200)
  async recoveryCodes(@Body() _body: EmptyDto): Promise<{ codes: ShownOnce<string[]> }> {
    return { codes: await this.credentials.newRecoveryCodes() };
  }

  @Get('blocked-ips')
  @Scope('admin')
  blocked(@Query() query: Record<string, unknown>): Promise<Page<BlockedAddress>> {
    return this.throttle.list(query);
  }

  @Delete('blocked-ips/:ip')
  @SessionOnly()
  @StepUp()
  @HttpCode(200)
  async unblock(@Param('ip') ip: string): Promise<{ ok: true }> {
    await this.throttle.unblock(ip);
    return { ok: true };
  }
}
