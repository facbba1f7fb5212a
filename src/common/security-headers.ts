import type { Express, NextFunction, Request, Response } from 'express';

/** Headers every answer carries; pages add their own Content-Security-Policy. */
export function installSecurityHeaders(app: Express): void {
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
}
