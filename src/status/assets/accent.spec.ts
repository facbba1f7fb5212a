import { accentColours, contrast, SURFACES, themeCss } from './accent';

describe('accent colours', () => {
  it.each(['#564be6', '#ffff00', '#00ff00', '#ffffff', '#000000', '#7f7f7f', '#e11d48', '#0ea5e9'])(
    '%s gives links that read on every surface and a filled colour that reads under its text',
    (hex) => {
      for (const theme of ['light', 'dark'] as const) {
        const c = accentColours(hex, theme);
        for (const bg of SURFACES[theme]) expect(contrast(c.ink, bg)).toBeGreaterThanOrEqual(4.5);
        expect(contrast(c.solid, c.on)).toBeGreaterThanOrEqual(4.5);
      }
    },
  );

  it('keeps an accent that already reads as it is', () => {
    expect(accentColours('#564be6', 'light')).toMatchObject({ ink: '#564be6', solid: '#564be6', on: '#ffffff' });
  });

  it('writes the light, dark and automatic themes', () => {
    const css = themeCss('#564be6');
    expect(css).toContain(':root{--ac:#564be6;');
    expect(css).toContain(':root[data-theme=dark]{');
    expect(css).toContain('@media (prefers-color-scheme:dark){:root[data-theme=auto]{');
  });
});
