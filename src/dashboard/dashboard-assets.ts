/**
 * The dashboard's shipped files (public/dashboard/ and public/shared/): read once, linked
 * (asset-links.ts: content hashes, imports rewritten), compressed once, and sent with a year's
 * cache when asked for by their current hash.
 */
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import { contentTypeFor } from '../common/resources/static-files';
import { pickEncoding } from '../common/http/compression/accept-encoding';
import { Packed, precompressLater } from '../common/http/compression/compression';
import { versionOf } from '../status/settings/status-page.repository';
import { pageFiles } from './asset-folders';
import { importsOf } from './asset-links';

const YEAR = 'public, max-age=31536000, immutable';
/** Already compressed, or too small to be worth it. */
const STORED = /\.(png|woff2|ico)$/;

export interface DashboardAsset {
  packed: Packed;
  v: string;
  type: string;
  compress: boolean;
  /** The modules this one imports (the dashboard's and the shared ones), by name. */
  imports: string[];
}

@Injectable()
export class DashboardAssets implements OnApplicationBootstrap, OnApplicationShutdown {
  private files: Map<string, DashboardAsset> | null = null;
  private cancelPrecompress: (() => void) | null = null;
  /** modulesOf() per page script: the files never change while the process runs. */
  private readonly graphs = new Map<string, string[]>();

  onApplicationBootstrap(): void {
    this.cancelPrecompress = precompressLater(() =>
      [...this.load().values()].filter((a) => a.compress).map((a) => a.packed),
    );
  }

  onApplicationShutdown(): void {
    this.cancelPrecompress?.();
  }

  private load(): Map<string, DashboardAsset> {
    if (this.files) return this.files;
    const { raw, linked } = pageFiles('dashboard', versionOf);
    this.files = new Map(
      [...linked].map(([name, f]) => {
        const source = name.endsWith('.js') ? raw.get(name)!.toString('utf8') : '';
        return [
          name,
          {
            packed: new Packed(f.data, 'max'),
            v: f.v,
            type: contentTypeFor(name)!,
            compress: !STORED.test(name),
            imports: importsOf(source, name),
          },
        ];
      }),
    );
    return this.files;
  }

  get(name: string): DashboardAsset | null {
    return this.load().get(name) ?? null;
  }

  /** Every file's versioned URL (what the service worker keeps), the worker's own source left out. */
  urls(): string[] {
    return [...this.load().keys()].filter((n) => n !== 'sw.js').map((n) => this.url(n));
  }

  /** `/dashboard/assets/<name>?v=<hash>`: the URL a page names a file by. */
  url(name: string): string {
    const a = this.get(name);
    if (!a) throw new Error(`dashboard asset ${name} is missing`);
    return `/dashboard/assets/${name}?v=${a.v}`;
  }

  /**
   * The versioned URLs of every module `name` imports, directly or not: a page names them as
   * `modulepreload` links, so the browser fetches the whole graph at once instead of one level of
   * imports after another.
   */
  modulesOf(name: string): string[] {
    let urls = this.graphs.get(name);
    if (!urls) this.graphs.set(name, (urls = this.walkImports(name)));
    return urls;
  }

  private walkImports(name: string): string[] {
    const seen = new Set<string>();
    const visit = (n: string) => {
      const a = this.get(n);
      for (const dep of a?.imports ?? []) {
        if (seen.has(dep)) continue;
        seen.add(dep);
        visit(dep);
      }
    };
    visit(name);
    return [...seen].map((n) => this.url(n));
  }

  /** Sends a file: a year's cache for its current hash, revalidated otherwise; compressed as the client accepts. */
  send(req: Request, res: Response, a: DashboardAsset): void {
    const encoding = a.compress ? pickEncoding(req.headers['accept-encoding'] as string | undefined) : 'identity';
    const body = a.packed.body(encoding);
    res.setHeader('Content-Type', a.type);
    res.setHeader('Cache-Control', req.query.v === a.v ? YEAR : 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', `"${a.v}-${encoding}"`);
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    if (req.headers['if-none-match'] === `"${a.v}-${encoding}"`) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
