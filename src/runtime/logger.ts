/**
 * Plain one-line logs for journald and terminals: `<time> <LEVEL> [context] message`, no colours.
 * Nest's start-up chatter (module wiring, route mapping) only shows at debug.
 *
 * Every warning and error, whatever the log level, is also kept in the ring of recent problems
 * (common/recent-problems.ts) for GET /diagnostics, with anything that looks like a secret masked
 * (maskSecretsInText): the ring is readable with a `read` key, the journal is not.
 */
import type { LoggerService } from '@nestjs/common';
import type { LogLevel } from '../config/config';
import { LoggedProblem, ProblemRing, recentProblems } from '../common/recent-problems';
import { MASK } from '../common/secrets/secrets';

const RANK: Record<string, number> = { fatal: 0, error: 0, warn: 1, log: 2, debug: 3, verbose: 3 };
const LIMIT: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };
const CHATTY = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

const PROBLEM_MAX_CHARS = 500;

/** Names of things that hold secrets, as they appear in query strings, headers and `name=value` text. */
const SECRET_NAME =
  '[A-Za-z0-9_.-]*(?:token|secret|password|passwd|pwd|api[_-]?key|apikey|signature|sig|auth|session|cookie|credential)[A-Za-z0-9_.-]*';
const MASKS: [RegExp, string][] = [
  // API keys: fs_ and 48 hex.
  [/\bfs_[0-9a-f]{48}\b/gi, `fs_${MASK}`],
  // Authorization header values.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${MASK}`],
  // A password in a URL: scheme://user:password@host.
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi, `$1:${MASK}@`],
  // Links that carry a token in their path: heartbeat pings, setup, enrolment and reset links.
  [/(\/(?:hb|setup|enroll|reset)\/)[A-Za-z0-9_-]{8,}/g, `$1${MASK}`],
  // name=value and "name": "value" where the name says secret.
  [
    new RegExp(
      `((?:^|[?&;,\\s{"'])${SECRET_NAME}["']?\\s*[=:]\\s*["']?)(?!Bearer\\b|Basic\\b|\\*{8})[^\\s"'&;,}]+`,
      'gi',
    ),
    `$1${MASK}`,
  ],
];

/** The text with anything that looks like a secret replaced by ********. Pure. */
export function maskSecretsInText(text: string): string {
  let out = text;
  for (const [re, to] of MASKS) out = out.replace(re, to);
  return out;
}

export class LineLogger implements LoggerService {
  constructor(
    private readonly level: LogLevel,
    private readonly out: (line: string) => void = (line) => process.stderr.write(line),
    private readonly problems: ProblemRing = recentProblems,
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
    if (kind === 'warn' || kind === 'error' || kind === 'fatal')
      this.keepProblem(kind === 'warn' ? 'warn' : 'error', message, context);
    let rank = RANK[kind] ?? 2;
    if (context && CHATTY.has(context) && rank === 2) rank = 3;
    if (rank > LIMIT[this.level]) return;
    const level = kind === 'log' ? 'INFO' : kind.toUpperCase();
    this.out(`${new Date().toISOString()} ${level} [${context ?? 'farsight'}] ${stringify(message)}\n`);
  }

  private keepProblem(level: LoggedProblem['level'], message: unknown, context: string | undefined): void {
    const first = (message instanceof Error ? message.message : stringify(message)).split('\n')[0];
    const masked = maskSecretsInText(first);
    this.problems.add({
      at: new Date().toISOString(),
      level,
      context: context ?? 'farsight',
      message: masked.length > PROBLEM_MAX_CHARS ? `${masked.slice(0, PROBLEM_MAX_CHARS - 1)}…` : masked,
    });
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
