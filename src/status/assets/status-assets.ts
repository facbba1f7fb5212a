/**
 * The page's shipped files (public/status/): the stylesheet, the one script, the fonts and the
 * service's own icons. Read once, named by a hash of their bytes (`?v=`), compressed once. The
 * stylesheet names the fonts by their versioned URLs, so a new font makes a new stylesheet.
 */
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { readResource } from '../../common/resources/resources';
import { themeCss } from './accent';
import { Packed, precompressLater } from '../../common/http/compression/compression';
import type { Font } from '../settings/look';
import { versionOf } from '../settings/status-page.repository';

export interface Asset {
  packed: Packed;
  v: string;
  type: string;
}

/** The font files each choice uses (body and bold weights); `system` loads none. */
export const FONT_FILES: Record<Font, string[]> = {
  geist: ['geist-400.woff2', 'geist-600.woff2'],
  plex: ['plex-400.woff2', 'plex-600.woff2'],
  system: [],
};
const ALL_FONTS = [...FONT_FILES.geist, ...FONT_FILES.plex];

@Injectable()
export class StatusAssets implements OnApplicationBootstrap, OnApplicationShutdown {
  private loaded: { css: Asset; js: Asset; fonts: Map<string, Asset>; icon512: Asset; apple: Asset } | null = null;
  private readonly themes = new Map<string, Asset>();
  private cancelPrecompress: (() => void) | null = null;

  onApplicationBootstrap(): void {
    this.cancelPrecompress = precompressLater(() => [this.css.packed, this.js.packed]);
  }

  onApplicationShutdown(): void {
    this.cancelPrecompress?.();
  }

  private load() {
    if (this.loaded) return this.loaded;
    const file = (name: string, type: string, compress: boolean): Asset => {
      const data = readResource(`public/status/${name}`);
      return { packed: new Packed(data, compress ? 'max' : 'fast'), v: versionOf(data), type };
    };
    const fonts = new Map(ALL_FONTS.map((f) => [f, file(`fonts/${f}`, 'font/woff2', false)]));
    const cssText = readResource('public/status/status.css')
      .toString('utf8')
      .replace(/\/status\/fonts\/([a-z0-9-]+\.woff2)/g, (whole, name: string) =>
        fonts.has(name) ? `${whole}?v=${fonts.get(name)!.v}` : whole,
      );
    const css: Asset = { packed: new Packed(cssText, 'max'), v: versionOf(cssText), type: 'text/css; charset=utf-8' };
    this.loaded = {
      css,
      js: file('status.js', 'text/javascript; charset=utf-8', true),
      fonts,
      icon512: file('icon-512.png', 'image/png', false),
      apple: file('apple-touch-icon.png', 'image/png', false),
    };
    return this.loaded;
  }

  get css(): Asset {
    return this.load().css;
  }

  get js(): Asset {
    return this.load().js;
  }

  font(name: string): Asset | null {
    return this.load().fonts.get(name) ?? null;
  }

  get icon512(): Asset {
    return this.load().icon512;
  }

  get appleIcon(): Asset {
    return this.load().apple;
  }

  /** Versioned URLs of the fonts a choice loads (the first is preloaded). */
  fontUrls(font: Font): string[] {
    return FONT_FILES[font].map((f) => `/status/fonts/${f}?v=${this.font(f)!.v}`);
  }

  /** The accent stylesheet (accent.ts), kept per colour. */
  theme(accent: string): Asset {
    let a = this.themes.get(accent);
    if (!a) {
      const css = themeCss(accent);
      a = { packed: new Packed(css, 'max'), v: versionOf(css), type: 'text/css; charset=utf-8' };
      if (this.themes.size > 50) this.themes.clear();
      this.themes.set(accent, a);
    }
    return a;
  }
}
