import { Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule, RequestMethod } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CatalogModule } from '../catalog/catalog.module';
import { HistoryModule } from '../history/history.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { HostsModule } from '../hosts/hosts.module';
import { onPageHost } from './settings/hosts';
import { PublicData } from './public/public-data';
import { PublicStatusController } from './public/public-status.controller';
import { PublicStatusService } from './public/public-status.service';
import { StatusAssets } from './assets/status-assets';
import { BadgesController } from './badges/badges.controller';
import { BadgesService } from './badges/badges.service';
import { FeedsController } from './feeds/feeds.controller';
import { FeedsService } from './feeds/feeds.service';
import { StatusPageController } from './settings/status-page.controller';
import { StatusPageRepository } from './settings/status-page.repository';
import { StatusPageService } from './settings/status-page.service';

/** On one of the page's own hosts, `/` is the status page (spec: the manifest starts there). */
@Injectable()
export class PageHostMiddleware implements NestMiddleware {
  constructor(private readonly repo: StatusPageRepository) {}

  async use(req: Request, _res: Response, next: NextFunction): Promise<void> {
    if ((req.path === '/' || req.path === '') && onPageHost((await this.repo.getSettings()).hosts, req.headers.host)) {
      const q = req.url.indexOf('?');
      req.url = `/status${q < 0 ? '' : req.url.slice(q)}`;
    }
    next();
  }
}

/** The public status page: settings, public JSON and HTML, assets, logo and icon, preview, badges, feeds. */
@Module({
  imports: [CatalogModule, HistoryModule, MonitorsModule, HostsModule],
  controllers: [StatusPageController, BadgesController, FeedsController, PublicStatusController],
  providers: [
    StatusPageRepository,
    PublicData,
    PublicStatusService,
    StatusPageService,
    StatusAssets,
    PageHostMiddleware,
    BadgesService,
    FeedsService,
  ],
  exports: [StatusPageService, FeedsService, PublicStatusService],
})
export class StatusModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(PageHostMiddleware).forRoutes({ path: '/', method: RequestMethod.GET });
  }
}
