/** The owner's passkeys (spec "Owner routes"); API keys can never reach them. */
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { CurrentCaller, SessionOnly, StepUp } from '../../common/access/access';
import type { Caller } from '../../common/access/caller';
import { parseId } from '../../common/validation/ids';
import type { AppRequest } from '../../common/access/request-context';
import { API_ROOT } from '../../common/http/routes';
import { EmptyDto } from '../../common/validation/validation';
import type { OptionsAnswer } from './ceremonies.service';
import { RegistrationVerifyDto, RenamePasskeyDto } from './dto/passkey.dto';
import { OwnerPasskeysService } from './owner-passkeys.service';
import type { PasskeyRow } from './passkey-row';
import { sessionIdOf } from '../sessions/session-caller';

@SessionOnly()
@Controller(`${API_ROOT}/me/passkeys`)
export class MePasskeysController {
  constructor(private readonly passkeys: OwnerPasskeysService) {}

  @Get()
  list(): Promise<{ items: PasskeyRow[] }> {
    return this.passkeys.list();
  }

  @Post('options')
  @StepUp()
  @HttpCode(200)
  options(
    @Body() _body: EmptyDto,
    @CurrentCaller() caller: Caller | null,
  ): Promise<OptionsAnswer<PublicKeyCredentialCreationOptionsJSON>> {
    return this.passkeys.options(sessionIdOf(caller));
  }

  @Post('verify')
  @StepUp()
  @HttpCode(201)
  verify(
    @Body() dto: RegistrationVerifyDto,
    @CurrentCaller() caller: Caller | null,
    @Req() req: AppRequest,
  ): Promise<PasskeyRow> {
    return this.passkeys.register(sessionIdOf(caller), dto, req);
  }

  @Patch(':id')
  rename(@Param('id') id: string, @Body() dto: RenamePasskeyDto): Promise<PasskeyRow> {
    return this.passkeys.rename(parseId(id, 'passkey'), dto);
  }

  @Delete(':id')
  @StepUp()
  @HttpCode(200)
  async remove(@Param('id') id: string): Promise<{ ok: true }> {
    await this.passkeys.remove(parseId(id, 'passkey'));
    return { ok: true };
  }
}
