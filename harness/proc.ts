/**
 * CPU time and memory of another process, read from /proc (Linux). CPU is utime + stime of the
 * whole thread group, so sqlite3's worker threads and libuv's pool count as the service's work.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

let clockTicks: number | null = null;

/** Clock ticks per second (almost always 100); /proc/<pid>/stat counts CPU time in ticks. */
function ticksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

export interface CpuTimes {
  userMs: number;
  /** Time in the kernel on the process's behalf: sockets, and on loopback the peer's side of TCP too. */
  sysMs: number;
}

/** CPU time used so far, in ms (a pid, or /proc/<pid>/task/<tid> for one thread). */
export function cpuTimes(pid: number, thread?: number): CpuTimes {
  const stat = fs.readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  // The command name (field 2) may contain spaces and parentheses: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = 1000 / ticksPerSecond();
  return { userMs: Number(fields[11]) * tick, sysMs: Number(fields[12]) * tick };
}

export interface Memory {
  /** Resident set size now, bytes. */
  rss: number;
  /** Peak resident set size since the process started (VmHWM), bytes. */
  peak: number;
}

export function memory(pid: number): Memory {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return m ? Number(m[1]) * 1024 : 0;
  };
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

export interface CpuUse {
  /** User + system. */
  cpuMs: number;
  /** User + system of the main thread alone (the event loop: all JavaScript runs there). */
  mainMs: number;
  userMs: number;
  sysMs: number;
  wallMs: number;
  pctOfCore: number;
}

/** CPU used by a process from construction to read(), as ms and as % of one core. */
export class CpuWindow {
  private readonly start: CpuTimes;
  private readonly startMain: CpuTimes;
  private readonly startWall: number;

  constructor(private readonly pid: number) {
    this.start = cpuTimes(pid);
    // The main thread's task id is the pid; the others are libuv's pool (sqlite3, dns) and V8's helpers (GC).
    this.startMain = cpuTimes(pid, pid);
    this.startWall = performance.now();
  }

  read(): CpuUse {
    const now = cpuTimes(this.pid);
    const main = cpuTimes(this.pid, this.pid);
    const userMs = now.userMs - this.start.userMs;
    const sysMs = now.sysMs - this.start.sysMs;
    const mainMs = main.userMs + main.sysMs - this.startMain.userMs - this.startMain.sysMs;
    const wallMs = performance.now() - this.startWall;
    return {
      cpuMs: userMs + sysMs,
      mainMs,
      userMs,
      sysMs,
      wallMs,
      pctOfCore: wallMs > 0 ? (100 * (userMs + sysMs)) / wallMs : 0,
    };
  }
}

/** Samples RSS every intervalMs until stop(); keeps the maximum and the samples. */
export class RssSampler {
  private readonly timer: NodeJS.Timeout;
  readonly samples: number[] = [];
  max = 0;

  constructor(
    private readonly pid: number,
    intervalMs = 1000,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  private sample(): void {
    try {
      const { rss } = memory(this.pid);
      this.samples.push(rss);
      if (rss > this.max) this.max = rss;
    } catch {
      // the process has exited; keep what we have
    }
  }
}

/**
 * Bytes the process handed to write() so far (wchar of /proc/<pid>/io): for the service, WAL and
 * checkpoint writes of sqlite plus sockets and logs. The kernel may merge page writes later, but
 * this is what sqlite asked for, which is what write amplification is about.
 */
export function bytesWritten(pid: number | 'self'): number {
  const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
  const m = /^wchar:\s+(\d+)/m.exec(io);
  return m ? Number(m[1]) : 0;
}
