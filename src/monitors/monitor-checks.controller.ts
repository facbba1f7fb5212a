import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Scope } from '../common/access/access';
import { API_ROOT } from '../common/http/routes';
import { EmptyDto } from '../common/validation/validation';
import { CheckResultDto } from '../probes/check-result';
import { CheckNowService } from './check-now.service';

@Controller(`${API_ROOT}/monitors`)
export class MonitorChecksController {
  constructor(private readonly checks: CheckNowService) {}

  /** Runs an unsaved monitor once; changes nothing. */
  @Post('test')
  @Scope('write')
  @HttpCode(200)
  test(@Body() body: unknown): Promise<CheckResultDto> {
    return this.checks.testUnsaved(body);
  }

  /** Runs a saved monitor now; the result is stored like a scheduled one. */
  @Post(':id/check')
  @Scope('write')
  @HttpCode(200)
  checkNow(@Param('id') id: string, @Body() _: EmptyDto): Promise<CheckResultDto> {
    return this.checks.checkNow(id);
  }
}
