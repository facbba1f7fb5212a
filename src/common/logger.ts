/**
 * Plain one-line logs for journald and terminals: `<time> <LEVEL> [context] message`, no colours.
 * Nest's start-up chatter (module wiring, route mapping) only shows at debug.
 */
import { LoggerService } from '@nestjs/common';
import type { LogLevel } from '../config/config';

const RANK: Record<string, number> = { fatal: 0, error: 0, warn: 1, log: 2, debug: 3, verbose: 3 };
const LIMIT: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };
const CHATTY = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

export class LineLogger implements LoggerService {
  constructor(
    private readonly level: LogLevel,
    private readonly out: (line: string) => void = (line) => process.stderr.write(line),
  ) {}

  log(message: unknown, context?: string): void {
    this.write('log', message, context);
  }
  error(message: unknown, ...rest: unknown[]): void {
    // Nest passes (message, stack?, context?); the last string is the context.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? `\n${rest[0]}` : '';
    this.write('error', `${stringify(message)}${stack}`, context);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('verbose', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(kind: string, message: unknown, context?: string): void {
    let rank = RANK[kind] ?? 2;
    if (context && CHATTY.has(context) && rank === 2) rank = 3;
    if (rank > LIMIT[this.level]) return;
    const level = kind === 'log' ? 'INFO' : kind.toUpperCase();
    this.out(`${new Date().toISOString()} ${level} [${context ?? 'farsight'}] ${stringify(message)}\n`);
  }
}

function stringify(m: unknown): string {
  if (typeof m === 'string') return m;
  if (m instanceof Error) return m.stack ?? m.message;
  try {
    return JSON.stringify(m);
  } catch {
    return String(m);
  }
}
