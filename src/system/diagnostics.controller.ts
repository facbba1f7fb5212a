import { Controller, Get } from '@nestjs/common';
import { Scope } from '../common/access/access';
import { API_ROOT } from '../common/http/routes';
import { DiagnosticsAnswer, DiagnosticsService } from './diagnostics.service';

@Controller(`${API_ROOT}/diagnostics`)
export class DiagnosticsController {
  constructor(private readonly diagnostics: DiagnosticsService) {}

  @Get()
  @Scope('read')
  get(): Promise<DiagnosticsAnswer> {
    return this.diagnostics.get();
  }
}
