import { Controller, Get } from '@nestjs/common';
import { Scope } from '../common/access';
import { API_ROOT } from '../common/routes';
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
