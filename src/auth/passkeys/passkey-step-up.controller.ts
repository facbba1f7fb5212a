/** Step-up with a passkey (spec "Sign-in routes"): the owner's session confirms it is still the owner. */
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { CurrentCaller, SessionOnly } from '../../common/access/access';
import type { Caller } from '../../common/access/caller';
import type { AppRequest } from '../../common/access/request-context';
import { API_ROOT } from '../../common/http/routes';
import { EmptyDto } from '../../common/validation/validation';
import type { OptionsAnswer } from './ceremonies.service';
import { AssertionVerifyDto } from './dto/passkey.dto';
import { PasskeySignInService } from './passkey-sign-in.service';
import { sessionIdOf } from '../sessions/session-caller';

@SessionOnly()
@Controller(`${API_ROOT}/auth/step-up/passkey`)
export class PasskeyStepUpController {
  constructor(private readonly passkeys: PasskeySignInService) {}

  @Post('options')
  @HttpCode(200)
  options(
    @Body() _body: EmptyDto,
    @CurrentCaller() caller: Caller | null,
  ): Promise<OptionsAnswer<PublicKeyCredentialRequestOptionsJSON>> {
    return this.passkeys.stepUpOptions(sessionIdOf(caller));
  }

  @Post('verify')
  @HttpCode(200)
  verify(
    @Body() dto: AssertionVerifyDto,
    @CurrentCaller() caller: Caller | null,
    @Req() req: AppRequest,
  ): Promise<{ fresh_until: string }> {
    return this.passkeys.stepUp(sessionIdOf(caller), dto, req);
  }
}
