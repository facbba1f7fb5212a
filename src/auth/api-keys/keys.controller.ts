import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { parseId } from '../../common/validation/ids';
import { Page } from '../../common/http/paging';
import { API_ROOT } from '../../common/http/routes';
import { ApiKeyDto, ApiKeysService } from './api-keys.service';
import { Scope, SessionOnly, StepUp } from '../../common/access/access';
import { CreateKeyDto } from '../dto/create-key.dto';
import type { ShownOnce } from '../../common/secrets/shown-once';

@Controller(`${API_ROOT}/keys`)
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @Scope('admin')
  list(@Query() query: Record<string, unknown>): Promise<Page<ApiKeyDto>> {
    return this.keys.list(query);
  }

  @Post()
  @SessionOnly()
  @StepUp()
  create(@Body() dto: CreateKeyDto): Promise<ApiKeyDto & { key: ShownOnce }> {
    return this.keys.create(dto);
  }

  @Delete(':id')
  @SessionOnly()
  @StepUp()
  @HttpCode(200)
  async revoke(@Param('id') id: string): Promise<{ ok: true }> {
    await this.keys.revoke(parseId(id, 'API key'));
    return { ok: true };
  }
}
