// A vitest reporter that turns a stuck test file into a failure naming it: vitest's own timeout cannot fire while a
// worker's event loop is blocked (a synchronous loop, a native call), so the main process watches the clock.
import { readFileSync, readdirSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** Checks the running files this often. */
const POLL_MS = Number(process.env.RTGPU_WATCHDOG_POLL_MS ?? 30_000);
/**
 * A file running this long is stuck. The limit is per file, not per test: a blocked worker cannot even report
 * which test it is in (its reports leave from its event loop). The slowest file takes about 5 minutes.
 */
const FILE_LIMIT_MS = Number(process.env.RTGPU_WATCHDOG_FILE_MS ?? 1_200_000);
/** Files running this long are listed (once per interval), so a slow CI log shows where the time goes. */
const REPORT_EVERY_MS = 300_000;

interface Running {
  readonly file: string;
  readonly since: number;
  /** The last of its tests the worker reported: where it was, at the latest, when it stopped answering. */
  lastSeen?: string;
}

export default class WatchdogReporter implements Reporter {
  private readonly running = new Map<string, Running>();
  private readonly timer = setInterval(() => this.check(), POLL_MS).unref();
  private lastReport = Date.now();

  onTestModuleQueued(m: TestModule): void {
    this.running.set(m.id, { file: m.relativeModuleId, since: Date.now() });
  }

  onTestModuleEnd(m: TestModule): void {
    this.running.delete(m.id);
  }

  onTestCaseReady(t: TestCase): void {
    this.see(t, 'started');
  }

  onTestCaseResult(t: TestCase): void {
    this.see(t, 'finished');
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }

  private see(t: TestCase, what: string): void {
    const r = this.running.get(t.module.id);
    if (r) r.lastSeen = `"${t.fullName}" ${what}`;
  }

  private check(): void {
    const now = Date.now();
    const stuck = [...this.running.values()].filter((r) => now - r.since > FILE_LIMIT_MS);
    if (stuck.length) return abort(stuck, now);
    if (now - this.lastReport < REPORT_EVERY_MS) return;
    this.lastReport = now;
    for (const r of this.running.values()) if (now - r.since > REPORT_EVERY_MS) process.stdout.write(`watchdog: ${describe(r, now)}\n`);
  }
}

const describe = (r: Running, now: number): string => `${r.file} has run ${Math.round((now - r.since) / 1000)} s (${r.lastSeen ? `last reported: ${r.lastSeen}` : 'no test of it reported'})`;

/** Names every stuck file and ends the run: the workers are killed, so no process is left holding the log open. */
function abort(stuck: readonly Running[], now: number): never {
  for (const r of stuck) process.stderr.write(`\nwatchdog: ${describe(r, now)}, past the ${FILE_LIMIT_MS / 1000} s limit of a file: its worker is stuck (a synchronous loop or a call that does not return). The run is stopped.\n`);
  killDescendants(process.pid);
  process.exit(1);
}

/** Kills every process below `pid` (workers and the simulators they started), read from /proc (no `ps` needed). */
function killDescendants(pid: number): void {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent is the 2nd field after the parenthesized command name (which may hold spaces).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const below = (p: number): number[] => (children.get(p) ?? []).flatMap((c) => [c, ...below(c)]);
  for (const c of below(pid)) {
    try {
      process.kill(c, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
