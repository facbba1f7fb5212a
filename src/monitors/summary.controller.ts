import { Controller, Get } from '@nestjs/common';
import { API_ROOT } from '../common/http/routes';
import { SummaryDto, SummaryService } from './summary.service';

@Controller(`${API_ROOT}/summary`)
export class SummaryController {
  constructor(private readonly summary: SummaryService) {}

  @Get()
  get(): Promise<SummaryDto> {
    return this.summary.get();
  }
}
