import { pageCsp } from './page-csp';

describe('pageCsp', () => {
  it('allows only our own scripts, styles and API, nothing inline, no framing', () => {
    const csp = pageCsp({ challenge: false });
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]);
    expect(csp).not.toContain('unsafe');
  });

  it('lets the challenge widget in, and only it, when a bot challenge is configured', () => {
    const csp = pageCsp({ challenge: true });
    expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com");
    expect(csp).toContain('frame-src https://challenges.cloudflare.com');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
  });

  it('lets the dashboard have its manifest, its service worker and blob images, still nothing inline', () => {
    const csp = pageCsp({ challenge: false, app: true });
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe');
  });
});
