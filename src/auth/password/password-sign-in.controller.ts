import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentCaller, Public, SessionOnly } from '../../common/access/access';
import type { Caller } from '../../common/access/caller';
import { NeverReplayed } from '../../common/http/idempotency';
import type { AppRequest } from '../../common/access/request-context';
import { API_ROOT } from '../../common/http/routes';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { CodeDto, ForgotDto, PasswordDto, ResetDto, StepUpPasswordDto } from '../dto/password-sign-in.dto';
import { PasswordSignInService } from './password-sign-in.service';
import { ResetService } from './reset.service';
import { sessionIdOf } from '../sessions/session-caller';
import { setSessionCookie } from '../sessions/session-cookie';

/** Password sign-in, reset and password step-up (spec "Sign-in routes"). */
@Controller(`${API_ROOT}/auth`)
export class PasswordSignInController {
  constructor(
    private readonly signIn: PasswordSignInService,
    private readonly resets: ResetService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('password')
  @Public()
  @NeverReplayed()
  @HttpCode(200)
  password(@Body() dto: PasswordDto, @Req() req: AppRequest): Promise<{ ticket: string; next: 'code' }> {
    return this.signIn.password(dto, req);
  }

  @Post('code')
  @Public()
  @NeverReplayed()
  @HttpCode(200)
  async code(
    @Body() dto: CodeDto,
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ ok: true }> {
    const { token } = await this.signIn.code(dto, req);
    setSessionCookie(res, token, this.config);
    return { ok: true };
  }

  @Post('forgot')
  @Public()
  @NeverReplayed()
  @HttpCode(200)
  async forgot(@Body() dto: ForgotDto, @Req() req: AppRequest): Promise<{ ok: true }> {
    await this.resets.forgot(dto, req);
    return { ok: true };
  }

  @Post('reset')
  @Public()
  @NeverReplayed()
  @HttpCode(200)
  async reset(
    @Body() dto: ResetDto,
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ ok: true }> {
    const { token } = await this.resets.reset(dto, req);
    setSessionCookie(res, token, this.config);
    return { ok: true };
  }

  @Post('step-up/password')
  @SessionOnly()
  @NeverReplayed()
  @HttpCode(200)
  stepUp(
    @Body() dto: StepUpPasswordDto,
    @CurrentCaller() caller: Caller | null,
    @Req() req: AppRequest,
  ): Promise<{ fresh_until: string }> {
    return this.signIn.stepUp(dto, sessionIdOf(caller), req.clientIp ?? null);
  }
}
