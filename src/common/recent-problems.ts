/**
 * The last 50 warnings and errors the service logged, for GET /diagnostics. The logger
 * (runtime/logger.ts) fills it with each problem's first line, secrets masked; diagnostics reads
 * it. It lives apart from the logger so that a module may read it without reaching for the
 * process-level pieces only main.ts and app.ts use.
 */

/** One warning or error as the ring keeps it. */
export interface LoggedProblem {
  /** RFC 3339, as in the log line. */
  at: string;
  level: 'warn' | 'error';
  context: string;
  /** The message's first line, secrets masked, at most 500 characters. */
  message: string;
}

export const PROBLEM_RING_SIZE = 50;

/** The last `size` problems, oldest overwritten first. */
export class ProblemRing {
  private readonly items: LoggedProblem[] = [];
  private next = 0;

  constructor(private readonly size = PROBLEM_RING_SIZE) {}

  add(p: LoggedProblem): void {
    if (this.items.length < this.size) this.items.push(p);
    else this.items[this.next] = p;
    this.next = (this.next + 1) % this.size;
  }

  /** Newest first. */
  list(): LoggedProblem[] {
    const n = this.items.length;
    const out: LoggedProblem[] = [];
    for (let i = 1; i <= n; i++) out.push({ ...this.items[(this.next - i + n * 2) % n] });
    return out;
  }
}

/**
 * The ring every LineLogger of this process feeds by default. Logging is process-wide (Nest's
 * Logger is static), so its ring is too.
 */
export const recentProblems = new ProblemRing();
