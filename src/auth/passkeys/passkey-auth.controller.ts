/** The public passkey routes: sign-in and break-glass enrolment (spec "Sign-in routes"). */
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { Response } from 'express';
import { Public } from '../../common/access/access';
import type { AppRequest } from '../../common/access/request-context';
import { API_ROOT } from '../../common/http/routes';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { setSessionCookie } from '../sessions/session-cookie';
import type { OptionsAnswer } from './ceremonies.service';
import { AssertionVerifyDto, PasskeyOptionsDto, RegistrationVerifyDto } from './dto/passkey.dto';
import { EnrolInfo, EnrolmentService } from './enrolment.service';
import { PasskeySignInService } from './passkey-sign-in.service';

@Public()
@Controller(`${API_ROOT}/auth`)
export class PasskeyAuthController {
  constructor(
    private readonly passkeys: PasskeySignInService,
    private readonly enrolment: EnrolmentService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('passkey/options')
  @HttpCode(200)
  options(
    @Body() dto: PasskeyOptionsDto,
    @Req() req: AppRequest,
  ): Promise<OptionsAnswer<PublicKeyCredentialRequestOptionsJSON>> {
    return this.passkeys.options(dto, req);
  }

  @Post('passkey/verify')
  @HttpCode(200)
  async verify(
    @Body() dto: AssertionVerifyDto,
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ ok: true }> {
    const { token } = await this.passkeys.signIn(dto, req);
    setSessionCookie(res, token, this.config);
    return { ok: true };
  }

  @Get('enroll/:token')
  enrolInfo(@Param('token') token: string): Promise<EnrolInfo> {
    return this.enrolment.info(token);
  }

  @Post('enroll/:token/options')
  @HttpCode(200)
  enrolOptions(
    @Param('token') token: string,
    @Body() dto: PasskeyOptionsDto,
    @Req() req: AppRequest,
  ): Promise<OptionsAnswer<PublicKeyCredentialCreationOptionsJSON>> {
    return this.enrolment.options(token, dto, req);
  }

  @Post('enroll/:token/verify')
  @HttpCode(200)
  async enrol(
    @Param('token') token: string,
    @Body() dto: RegistrationVerifyDto,
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ ok: true }> {
    const { token: session } = await this.enrolment.verify(token, dto, req);
    setSessionCookie(res, session, this.config);
    return { ok: true };
  }
}
