import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { API_ROOT } from '../common/http/routes';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AuthService, AuthState } from './auth.service';
import { Public } from '../common/access/access';
import { NeverReplayed } from '../common/http/idempotency';
import type { ShownOnce } from '../common/secrets/shown-once';
import { SetupDto } from './dto/setup.dto';
import { AppRequest } from '../common/access/request-context';
import { clearSessionCookie, setSessionCookie } from './sessions/session-cookie';
import { SetupInfo, SetupService } from './setup/setup.service';

@Public()
@Controller(`${API_ROOT}/auth`)
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly setup: SetupService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('state')
  state(@Req() req: AppRequest): Promise<AuthState> {
    return this.auth.state(req);
  }

  @Get('setup/:token')
  setupInfo(@Param('token') token: string): Promise<SetupInfo> {
    return this.setup.info(token);
  }

  @Post('setup/:token')
  @NeverReplayed()
  @HttpCode(200)
  async completeSetup(
    @Param('token') token: string,
    @Body() dto: SetupDto,
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ ok: true; recovery_codes: ShownOnce<string[]> }> {
    const { session, codes } = await this.auth.completeSetup(token, dto, req);
    setSessionCookie(res, session, this.config);
    return { ok: true, recovery_codes: codes };
  }

  @Post('logout')
  @HttpCode(200)
  async logout(@Req() req: AppRequest, @Res({ passthrough: true }) res: Response): Promise<{ ok: true }> {
    await this.auth.logout(req);
    clearSessionCookie(res, this.config);
    return { ok: true };
  }
}
