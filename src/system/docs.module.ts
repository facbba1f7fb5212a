import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';
import { DocsService } from './docs.service';

/** The served documentation and /llms.txt (docs.controller.ts). */
@Module({ controllers: [DocsController], providers: [DocsService] })
export class DocsModule {}
