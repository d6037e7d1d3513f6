// Clock-driven testbench processes over any Simulator: `await tb.tick()`, `tb.fork`, `until`, timeouts.
//
// A cycle has two phases. In the drive phase every process woken by the clock runs until it waits again;
// it pokes inputs and may peek. When all are waiting, the settled phase wakes the processes that asked
// for it (`await tb.settled()`, `until`): the inputs of the cycle are final, so what they peek is what
// the clock edge will see, and poking is an error (as in cocotb's ReadOnly phase). Then the simulator
// steps to the earliest cycle some process waits for (many cycles in one call when every process sleeps
// longer), and the next drive phase begins. A design with several clocks runs instant by instant instead
// (every edge of every clock, in time order, `tb.clock` setting each one's period): a process waits for
// the rising edges of the clock it names (`tb.tick(1, 'clk_b')`).
import { AsyncLocalStorage } from 'node:async_hooks';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Simulator } from '../sim/simulator.ts';
import { ClockSchedule, type ClockTiming } from '../sim/clockSchedule.ts';
import { createRng, type Rng } from '../../util/seededRandom.ts';

export type Phase = 'drive' | 'settled';

/** This library's folder (src/hdl/testbench, or dist/hdl/testbench installed): its frames are not the user's. */
const libraryDir = dirname(fileURLToPath(import.meta.url)) + sep;

export interface TestbenchOptions {
  /** Seed of `tb.rng`, the source of every random choice of the drivers (default 1). */
  readonly seed?: number;
  /** The reset `reset()` drives (default 'rst_n'). */
  readonly resetName?: string;
  /** The level that asserts it (default 'low'). */
  readonly resetActive?: 'high' | 'low';
  /**
   * Wall-clock seconds the clock may stand still before the run fails (default 120; 0: no limit): a
   * process awaiting something that never comes, or spinning on peek() without `await tb.tick()`.
   */
  readonly stallSeconds?: number;
}

export interface RunOptions {
  /** Cycles the body may take; past them the run fails naming what each process waits for (default 1,000,000). */
  readonly maxCycles?: number;
}

/** A process ran out of cycles (a `run` limit, an `until` timeout or `withTimeout`). */
export class TestbenchTimeoutError extends Error {
  override name = 'TestbenchTimeoutError';
}

/** A forked process: its result, whether it ended, and a way to wait for it. */
export class Process<T = unknown> {
  done = false;
  /** What the process waits for now (for timeout messages). */
  waitingFor = 'running';
  /** @internal The wait that called suspend (until, withTimeout), the cycle it began, and its caller's stack. */
  wait: { task: string | undefined; since: number; site: Error } | undefined;
  /** @internal Set by until() and withTimeout() around the ticks they wait with. */
  task: string | undefined;
  /** @internal Processes blocked in join() on this one. */
  readonly joiners: (() => void)[] = [];
  result: T | undefined;
  readonly finished: Promise<T>;
  /** @internal */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  settle!: { resolve: (v: any) => void; reject: (e: unknown) => void };

  constructor(readonly name: string) {
    this.finished = new Promise<T>((resolve, reject) => (this.settle = { resolve, reject }));
    // A failure is reported by Testbench.run; this only keeps Node from calling it unhandled.
    this.finished.catch(() => {});
  }
}

interface Waiter {
  readonly process: Process;
  readonly wake: () => void;
}

export class Testbench {
  readonly rng: Rng;
  private readonly store = new AsyncLocalStorage<Process>();
  private running = 0;
  private idleWaiter: (() => void) | undefined;
  /** Processes waiting for rising edges: of `clock` (several clocks) or of the only one, `at` its count of them. */
  private readonly clockWaiters: { at: number; clock: string; waiter: Waiter }[] = [];
  /** Several clocks: the time model the run loop walks (the simulator's own, mirrored), and each clock's rising edges so far. */
  private readonly schedule: ClockSchedule | undefined;
  private readonly rises = new Map<string, number>();
  private readonly resetActiveHigh: boolean;
  private settledWaiters: Waiter[] = [];
  private failure: { error: unknown } | undefined;
  private readonly processes = new Set<Process>();
  private currentPhase: Phase = 'drive';
  private readonly resetName: string;
  /** Inputs a driver holds (claimInputs), by name: who drives it. */
  private readonly drivers = new Map<string, string>();
  private readonly stallMs: number;
  /** Wall time of the last clock edge or phase change, and peeks since (a spinning process is seen in peek). */
  private lastProgress = Date.now();
  private peeksSinceProgress = 0;
  /** Inside run(): only then can the clock stand still. */
  private inRun = false;

  constructor(
    readonly sim: Simulator,
    opts: TestbenchOptions = {},
  ) {
    this.rng = createRng(opts.seed ?? 1);
    this.resetName = opts.resetName ?? 'rst_n';
    if (opts.resetActive !== undefined && opts.resetActive !== 'high' && opts.resetActive !== 'low') throw new Error(`resetActive is 'high' or 'low', got ${String(opts.resetActive)}`);
    this.resetActiveHigh = opts.resetActive === 'high';
    if (sim.clocks.length > 1) {
      // The same waveforms the simulator starts with; tb.clock sets both.
      this.schedule = new ClockSchedule(sim.clocks, Object.fromEntries(sim.clocks.map((c) => [c, sim.clockTiming(c)])));
      for (const c of sim.clocks) this.rises.set(c, 0);
    }
    const stall = opts.stallSeconds ?? 120;
    if (!(stall >= 0)) throw new Error(`stallSeconds must be 0 (no limit) or more, got ${stall}`);
    this.stallMs = stall * 1000;
  }

  get cycle(): number {
    return this.sim.cycle;
  }

  /** Simulated time, in ns. */
  get time(): number {
    return this.sim.time;
  }

  /** Sets a clock's period, phase and high time in ns (before the run starts); see `ClockTiming`. */
  clock(name: string, timing: ClockTiming): void {
    this.schedule?.set(name, timing);
    this.sim.setClockTiming(name, timing);
  }

  /** Rising edges of a clock so far (the first clock: `cycle`). */
  edges(clock: string): number {
    if (!this.sim.clocks.includes(clock)) throw new Error(`no clock '${clock}'; the clocks are ${this.sim.clocks.join(', ') || 'none'}`);
    return this.schedule ? this.rises.get(clock)! : this.cycle;
  }

  get phase(): Phase {
    return this.currentPhase;
  }

  /** The process this code runs in (undefined outside any). */
  get process(): Process | undefined {
    return this.store.getStore();
  }

  // ---------------------------------------------------------------- signals

  /** Drives an input (drive phase only: in the settled phase the cycle's inputs are final). */
  poke(name: string, value: bigint | number): void {
    if (this.currentPhase === 'settled') {
      throw new Error(`poke('${name}') in the settled phase of cycle ${this.cycle} (after settled() or until()): this cycle's inputs are final; await tb.tick() and drive the next cycle`);
    }
    this.sim.poke(name, value);
  }

  /** Writes words into a memory of the design (by hierarchical name, as the simulator names it), from `offset`. */
  loadMemory(path: string, words: readonly (bigint | number)[], offset = 0): void {
    this.sim.loadMemory(path, words, offset);
  }

  /** Every word of a memory of the design. */
  dumpMemory(path: string): bigint[] {
    return this.sim.dumpMemory(path);
  }

  peek(name: string): bigint {
    if (++this.peeksSinceProgress % 4096 === 0) this.checkStall();
    return this.sim.peek(name);
  }

  /**
   * Claims inputs for a driver (a stream source or sink) until `release` is called: a second driver of
   * the same input would fight the first over it every cycle, so it is an error naming the first.
   */
  claimInputs(owner: string, names: readonly string[]): () => void {
    for (const name of names) {
      const holder = this.drivers.get(name);
      if (holder) throw new Error(`'${name}' is already driven by ${holder}; a second driver would fight it every cycle: stop() the first, or drive the stream from one`);
    }
    for (const name of names) this.drivers.set(name, owner);
    return () => names.forEach((n) => this.drivers.get(n) === owner && this.drivers.delete(n));
  }

  /** The driver holding an input (claimInputs), if any. */
  driverOf(name: string): string | undefined {
    return this.drivers.get(name);
  }

  // ---------------------------------------------------------------- processes

  /** Starts `body` as a process in the current phase; it runs until its first wait before the caller continues its cycle. */
  fork<T>(name: string, body: () => Promise<T>): Process<T> {
    const p = new Process<T>(name);
    this.processes.add(p);
    this.running++;
    void this.store.run(p as Process, async () => {
      try {
        const v = await body();
        p.result = v;
        p.done = true;
        p.settle.resolve(v);
      } catch (e) {
        p.done = true;
        this.failure ??= { error: e };
        p.settle.reject(e);
      } finally {
        p.waitingFor = 'done';
        this.processes.delete(p as Process);
        // Joiners run on in this cycle: they count as running before this process stops counting.
        for (const wake of p.joiners.splice(0)) wake();
        this.release();
      }
    });
    return p;
  }

  /** Waits until every given process has ended; returns their results. */
  async join<T extends readonly Process[]>(...ps: T): Promise<{ [K in keyof T]: T[K] extends Process<infer R> ? R : never }> {
    for (const p of ps) {
      if (p.done) continue;
      await this.suspend(`join(${p.name})`, (wake) => p.joiners.push(wake));
    }
    const results = await Promise.all(ps.map((p) => p.finished));
    return results as { [K in keyof T]: T[K] extends Process<infer R> ? R : never };
  }

  /** Waits for `cycles` rising edges of `clock` (default: the first clock); resumes in the drive phase. */
  tick(cycles = 1, clock?: string): Promise<void> {
    if (!Number.isSafeInteger(cycles) || cycles < 1) throw new Error(`tick: cycles must be a positive integer, got ${cycles}`);
    const c = clock ?? this.sim.clocks[0] ?? '';
    const at = (clock === undefined ? this.cycle : this.edges(clock)) + cycles;
    return this.suspend(`tick until ${clock === undefined ? 'cycle' : `rising edge of '${clock}' number`} ${at}`, (wake, process) => {
      const entry = { at: this.schedule ? this.edges(c) + cycles : at, clock: c, waiter: { process, wake } };
      // Keep the list sorted by cycle, first come first served within a cycle.
      let i = this.clockWaiters.length;
      while (i > 0 && this.clockWaiters[i - 1]!.at > at) i--;
      this.clockWaiters.splice(i, 0, entry);
    });
  }

  /** Waits for the settled phase of the current cycle (from the drive phase) or of the next one. */
  async settled(): Promise<void> {
    if (this.currentPhase === 'settled') await this.tick();
    await this.suspend('settled phase', (wake, process) => this.settledWaiters.push({ process, wake }));
  }

  /**
   * Waits until `pred` holds in the settled phase of some cycle (this one included); returns the cycles
   * waited. Fails after `timeout` cycles (default: no limit but the run's).
   */
  async until(pred: () => boolean, opts: { timeout?: number; what?: string } = {}): Promise<number> {
    const start = this.cycle;
    const process = this.store.getStore();
    const outer = process?.task;
    if (process) process.task = `${opts.what ?? 'until()'} (not true since cycle ${start})`;
    try {
      for (;;) {
        await this.settled();
        if (pred()) return this.cycle - start;
        if (opts.timeout !== undefined && this.cycle - start >= opts.timeout) {
          throw new TestbenchTimeoutError(`${opts.what ?? 'until()'} did not hold within ${opts.timeout} cycles (cycles ${start} to ${this.cycle})`);
        }
        await this.tick();
      }
    } finally {
      if (process) process.task = outer;
    }
  }

  /** `promise` (typically a process's work), failing if it takes more than `cycles` cycles. */
  async withTimeout<T>(cycles: number, what: string, body: () => Promise<T>): Promise<T> {
    const start = this.cycle;
    const worker = this.fork(what, body);
    const guard = this.fork(`${what} (timeout)`, async () => {
      while (!worker.done) {
        if (this.cycle - start >= cycles) throw new TestbenchTimeoutError(`${what} did not finish within ${cycles} cycles (cycles ${start} to ${this.cycle})`);
        await this.tick();
      }
    });
    const [v] = await this.join(worker, guard);
    return v as T;
  }

  /** The reset held asserted for `cycles` cycles of the first clock, then released; resumes in the drive phase after. */
  async reset(cycles = 1): Promise<void> {
    this.poke(this.resetName, this.resetActiveHigh ? 1 : 0);
    await this.tick(cycles);
    this.poke(this.resetName, this.resetActiveHigh ? 0 : 1);
  }

  /**
   * Runs the clock until `body` (started as process 'main') ends; returns its result. Fails with the first
   * error of any process, or with a TestbenchTimeoutError after `maxCycles`. Processes still waiting when
   * the body ends stay as they are: a later `run` continues them.
   */
  async run<T>(body: () => Promise<T>, opts: RunOptions = {}): Promise<T> {
    if (this.store.getStore()) throw new Error('tb.run() inside a testbench process: fork the work instead');
    const limit = this.cycle + (opts.maxCycles ?? 1_000_000);
    this.failure = undefined;
    this.progress();
    const watchdog = this.stallMs > 0 ? setInterval(() => this.checkStall(), Math.min(1000, this.stallMs)) : undefined;
    watchdog?.unref();
    this.inRun = true;
    try {
      return await this.runUntilDone(body, limit, opts);
    } finally {
      this.inRun = false;
      clearInterval(watchdog);
    }
  }

  private async runUntilDone<T>(body: () => Promise<T>, limit: number, opts: RunOptions): Promise<T> {
    const main = this.fork('main', body);
    for (;;) {
      this.currentPhase = 'drive';
      this.progress();
      await this.idle();
      if (this.failure || main.done) break;
      this.currentPhase = 'settled';
      this.progress();
      while (this.settledWaiters.length && !this.failure) {
        for (const w of this.settledWaiters.splice(0)) w.wake();
        await this.idle();
      }
      if (this.failure || main.done) break;
      if (this.schedule) {
        this.nextInstant(limit, opts);
        continue;
      }
      const next = this.clockWaiters[0];
      if (!next) throw new Error(`testbench deadlock at cycle ${this.cycle}: no process waits for the clock (${this.describe()})`);
      if (next.at > limit) {
        this.edge(limit - this.cycle);
        this.currentPhase = 'drive';
        throw new TestbenchTimeoutError(`the testbench did not finish within ${opts.maxCycles ?? 1_000_000} cycles (now at cycle ${this.cycle}): ${this.describe()}`);
      }
      this.edge(next.at - this.cycle);
      this.currentPhase = 'drive';
      while (this.clockWaiters.length && this.clockWaiters[0]!.at <= this.cycle) this.clockWaiters.shift()!.waiter.wake();
    }
    this.currentPhase = 'drive';
    const failure = this.failure as { error: unknown } | undefined;
    if (failure) throw failure.error;
    return main.result as T;
  }

  /**
   * The building block of every wait: suspends the calling process until the `wake` function handed to
   * `arm` is called (by another process, a driver, or the clock). `what` names the wait in timeout and
   * deadlock messages. The clock advances when every process waits through this (or what is built on
   * it); awaiting anything else (a file, a timer) holds the cycle until it resolves.
   */
  suspend(what: string, arm: (wake: () => void, process: Process) => void): Promise<void> {
    const process = this.store.getStore();
    if (!process) throw new Error(`${what.split(' ')[0]} outside a testbench process: run the code inside tb.run(async () => …) or tb.fork(…)`);
    // A second wait before the first resumed (a wait not awaited) would count the process idle twice.
    if (process.waitingFor !== 'running') throw new Error(`'${process.name}' waits for ${what} while it still waits for ${process.waitingFor}: await each wait, or tb.fork() what should run alongside`);
    // The stack is formatted only if a timeout message needs the user's line (new Error() alone is cheap).
    if (process.wait?.task !== process.task || process.task === undefined) process.wait = { task: process.task, since: this.cycle, site: new Error() };
    return new Promise<void>((resolve) => {
      process.waitingFor = what;
      let woken = false;
      arm(() => {
        if (woken) return;
        woken = true;
        // Counted as running from the moment it is woken, so the phase cannot end before it runs.
        this.running++;
        process.waitingFor = 'running';
        resolve();
      }, process);
      this.release();
    });
  }

  // ---------------------------------------------------------------- scheduling internals

  /** Several clocks: the simulator runs to the next instant of the schedule; processes waiting for an edge made there wake. */
  private nextInstant(limit: number, opts: RunOptions): void {
    const schedule = this.schedule!;
    if (!this.clockWaiters.length) throw new Error(`testbench deadlock at ${this.sim.time} ns: no process waits for a clock (${this.describe()})`);
    if (this.cycle >= limit) throw new TestbenchTimeoutError(`the testbench did not finish within ${opts.maxCycles ?? 1_000_000} cycles of '${this.sim.clocks[0]}' (now at ${this.sim.time} ns): ${this.describe()}`);
    // The simulator may have run before the testbench began (a reset by sim.step): catch up with the instants it ran.
    const simPs = Math.round(this.sim.time * 1000);
    for (let n = schedule.peekNext(); n && n.timePs <= simPs; n = schedule.peekNext()) schedule.next();
    const instant = schedule.next();
    this.sim.advance(instant.timePs / 1000);
    for (const [c, level] of Object.entries(instant.levels)) if (level === 1) this.rises.set(c, this.rises.get(c)! + 1);
    this.currentPhase = 'drive';
    for (let i = 0; i < this.clockWaiters.length; ) {
      const w = this.clockWaiters[i]!;
      if (this.rises.get(w.clock)! >= w.at) {
        this.clockWaiters.splice(i, 1);
        w.waiter.wake();
      } else i++;
    }
  }

  private edge(cycles: number): void {
    if (cycles > 0) this.sim.step(cycles);
  }

  private progress(): void {
    this.lastProgress = Date.now();
    this.peeksSinceProgress = 0;
  }

  /**
   * The clock has stood still too long (wall time): fail the run. From the watchdog timer (a process
   * awaits something that never comes) the failure wakes the run loop; from peek (a process spins
   * without awaiting) it is thrown into that process.
   */
  private checkStall(): void {
    if (!this.inRun || this.stallMs === 0 || Date.now() - this.lastProgress < this.stallMs) return;
    const error = new TestbenchTimeoutError(`the clock stood still for ${Math.round((Date.now() - this.lastProgress) / 1000)} s of wall time at cycle ${this.cycle} (a process awaits something that is not the testbench's, or loops without await tb.tick()); ${this.describe()} (TestbenchOptions.stallSeconds sets the limit)`);
    this.progress();
    this.failure ??= { error };
    if (this.store.getStore()) throw error;
    // Nothing runs: wake the run loop, which reports the failure.
    this.running = 0;
    const w = this.idleWaiter;
    this.idleWaiter = undefined;
    w?.();
  }

  private release(): void {
    this.running--;
    if (this.running === 0 && this.idleWaiter) {
      const w = this.idleWaiter;
      this.idleWaiter = undefined;
      w();
    }
  }

  /** Until no process runs. A process woken after the last one stopped (same microtask turn) keeps it waiting. */
  private async idle(): Promise<void> {
    while (this.running > 0) await new Promise<void>((resolve) => (this.idleWaiter = resolve));
  }

  private describe(): string {
    const list = [...this.processes].map((p) => {
      const what = p.waitingFor === 'running' ? 'is running' : `waits for ${p.wait?.task ?? `${p.waitingFor} (since cycle ${p.wait?.since ?? this.cycle})`}`;
      const site = p.wait ? userSite(p.wait.site) : undefined;
      return `'${p.name}' ${what}${site ? ` at ${site}` : ''}`;
    });
    return list.length ? list.join('; ') : 'no process is left';
  }
}

/** The first frame of a wait's stack outside the testbench library and Node: the user's line, relative to the working directory. */
function userSite(e: Error): string | undefined {
  for (const line of (e.stack ?? '').split('\n').slice(1)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (file.startsWith('node:') || file.includes(`${sep}node_modules${sep}`) || file.startsWith(libraryDir)) continue;
    return `${relative(process.cwd(), file) || file}:${m[2]}:${m[3]}`;
  }
  return undefined;
}
