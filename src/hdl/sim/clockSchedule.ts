// Clocks in time: each clock's period and phase, the instants at which some clock has an edge, and the driver every engine shares.

/** A clock's waveform, in nanoseconds (fractions allowed; kept to the picosecond). */
export interface ClockTiming {
  /** Default 10. */
  readonly period?: number;
  /** Time of the first rising edge, from 0 up to one period. Default: half a period (the clock starts low). */
  readonly phase?: number;
  /** Time the clock is high in each period. Default: half a period (rounded down to the picosecond). */
  readonly high?: number;
}

/** Clock levels to apply at one instant (only the clocks that change). */
export type ClockLevels = Readonly<Record<string, 0 | 1>>;

const PS_PER_NS = 1000;

function picoseconds(ns: number, what: string): number {
  if (typeof ns !== 'number' || !Number.isFinite(ns) || ns < 0) throw new Error(`${what} must be a non-negative number of nanoseconds, got ${String(ns)}`);
  return Math.round(ns * PS_PER_NS);
}

interface ClockState {
  periodPs: number;
  phasePs: number;
  highPs: number;
  level: 0 | 1;
  /** Time of its next edge, in ps. */
  nextPs: number;
}

/**
 * The clocks of a design in time. All clocks start low at time 0. `next()` returns the earliest instant
 * at which some clock has an edge and the levels of the clocks that change there: simultaneous edges of
 * several clocks are one instant (their registers sample the same pre-edge values).
 */
export class ClockSchedule {
  private readonly states = new Map<string, ClockState>();
  /** Current time, in ps. */
  nowPs = 0;

  /** `defaults`: a clock's timing before `set` (the design's own period, `m.clockDomain({ period })`). */
  constructor(
    readonly clocks: readonly string[],
    defaults: Readonly<Record<string, ClockTiming>> = {},
  ) {
    for (const c of clocks) this.states.set(c, this.initial(defaults[c] ?? {}, c));
  }

  /** Sets one clock's waveform; before time moves (a clock's waveform does not change while it runs). */
  set(name: string, timing: ClockTiming): void {
    if (!this.states.has(name)) throw new Error(`no clock '${name}'; the clocks are ${this.clocks.join(', ') || 'none'}`);
    if (typeof timing !== 'object' || timing === null) throw new Error(`clock '${name}': the timing is { period, phase?, high? } in ns`);
    const unknown = Object.keys(timing).filter((k) => !['period', 'phase', 'high'].includes(k));
    if (unknown.length) throw new Error(`clock '${name}': unknown timing option ${unknown.join(', ')}; the options are period, phase, high (ns)`);
    if (this.nowPs > 0) throw new Error(`clock '${name}': set the clocks' timing before time moves (now ${this.nowPs / PS_PER_NS} ns)`);
    this.states.set(name, this.initial(timing, name));
  }

  /** The timing of a clock, in ns. */
  timing(name: string): Required<ClockTiming> {
    const s = this.states.get(name);
    if (!s) throw new Error(`no clock '${name}'; the clocks are ${this.clocks.join(', ') || 'none'}`);
    return { period: s.periodPs / PS_PER_NS, high: s.highPs / PS_PER_NS, phase: s.phasePs / PS_PER_NS };
  }

  /** The next instant (time in ps, clock levels), without moving to it. */
  peekNext(): { timePs: number; levels: Record<string, 0 | 1> } | undefined {
    let t = Infinity;
    for (const s of this.states.values()) t = Math.min(t, s.nextPs);
    if (t === Infinity) return undefined;
    const levels: Record<string, 0 | 1> = {};
    for (const [name, s] of this.states) if (s.nextPs === t) levels[name] = s.level === 0 ? 1 : 0;
    return { timePs: t, levels };
  }

  /** Moves to the next instant and returns it. */
  next(): { timePs: number; levels: Record<string, 0 | 1> } {
    const n = this.peekNext();
    if (!n) throw new Error('the design has no clock');
    for (const name of Object.keys(n.levels)) {
      const s = this.states.get(name)!;
      s.level = n.levels[name]!;
      this.advanceEdge(s);
    }
    this.nowPs = n.timePs;
    return n;
  }

  /** Every clock is low and none has an edge now (a step of a single clock may take its fast path from here). */
  atCycleBoundary(name: string): boolean {
    const s = this.states.get(name)!;
    return s.level === 0 && s.nextPs > this.nowPs;
  }

  /** Moves time by whole periods of a single clock that were run without the schedule (a fast `step`). */
  skipPeriods(name: string, periods: number): void {
    const s = this.states.get(name)!;
    const dt = s.periodPs * periods;
    s.nextPs += dt;
    this.nowPs += dt;
  }

  private initial(timing: ClockTiming, name = ''): ClockState {
    const periodPs = picoseconds(timing.period ?? 10, `clock '${name}' period`);
    if (periodPs < 2) throw new Error(`clock '${name}': a period of ${timing.period} ns is too short (at least 2 ps)`);
    const highPs = timing.high === undefined ? Math.floor(periodPs / 2) : picoseconds(timing.high, `clock '${name}' high time`);
    if (highPs < 1 || highPs >= periodPs) throw new Error(`clock '${name}': the high time must be above 0 and below the period (${periodPs / PS_PER_NS} ns)`);
    const phasePs = timing.phase === undefined ? Math.floor(periodPs / 2) : picoseconds(timing.phase, `clock '${name}' phase`);
    if (phasePs > periodPs) throw new Error(`clock '${name}': the phase must be from 0 to one period (${periodPs / PS_PER_NS} ns)`);
    return { periodPs, phasePs, highPs, level: 0, nextPs: phasePs };
  }

  /** From an edge to the following one (the level at `nextPs` is the one it moves away from). */
  private advanceEdge(s: ClockState): void {
    s.nextPs += s.level === 1 ? s.highPs : s.periodPs - s.highPs;
  }
}

/** `step`'s argument check, the same on every engine. */
export function checkStepCycles(cycles: number): void {
  if (!Number.isSafeInteger(cycles) || cycles < 0) throw new Error(`step: cycles must be a non-negative integer, got ${cycles}`);
}

/** What a clock driver needs of its engine. */
export interface ClockedEngine {
  readonly clocks: readonly string[];
  setClocks(levels: ClockLevels): void;
}

/**
 * Time and clocks for one engine: `step` and `advance` as every engine implements them. A design with one
 * clock steps on its fast path (a rising and a falling edge per cycle, `fastCycles`) while the schedule is
 * at a cycle boundary, adding those periods to the schedule's time only when someone asks for it (a
 * testbench that steps one cycle per call pays a test and an addition); otherwise every instant goes
 * through `setClocks`. The timings given are kept: `restart` (power-on) begins again at time 0 with them.
 */
export class ClockDriver {
  private schedule: ClockSchedule;
  private readonly given = new Map<string, ClockTiming>();
  /** Periods of the single clock run on the fast path and not yet added to the schedule's time. */
  private fastPeriods = 0;
  /** The fast path applies: one clock, a fast runner, and the schedule at a cycle boundary. */
  private fastOk: boolean;

  constructor(
    private readonly engine: ClockedEngine,
    /** Runs n whole cycles of the single clock from a cycle boundary. */
    private readonly fastCycles: ((n: number) => void) | undefined,
    private readonly defaults: Readonly<Record<string, ClockTiming>> = {},
  ) {
    this.schedule = new ClockSchedule(engine.clocks, defaults);
    this.fastOk = this.fastPossible();
  }

  /** Simulated time, in ns. */
  get now(): number {
    return this.nowPs / PS_PER_NS;
  }

  /** Simulated time, in ps. */
  get nowPs(): number {
    this.catchUp();
    return this.schedule.nowPs;
  }

  /** Sets a clock's waveform (before time moves); kept for `restart`. */
  setTiming(name: string, timing: ClockTiming): void {
    this.catchUp();
    this.schedule.set(name, timing);
    this.given.set(name, timing);
  }

  timing(name: string): Required<ClockTiming> {
    return this.schedule.timing(name);
  }

  /** Back to time 0 with every clock low, keeping the timings given (power-on). */
  restart(): void {
    this.schedule = new ClockSchedule(this.engine.clocks, this.defaults);
    for (const [name, t] of this.given) this.schedule.set(name, t);
    this.fastPeriods = 0;
    this.fastOk = this.fastPossible();
  }

  /** n rising edges of the first clock (with everything that happens on the way, in time order). */
  step(n: number): void {
    checkStepCycles(n);
    if (this.fastOk) {
      this.fastCycles!(n);
      this.fastPeriods += n;
      return;
    }
    const clocks = this.engine.clocks;
    if (clocks.length === 0) throw new Error('step: the design has no clock');
    const first = clocks[0]!;
    let rises = 0;
    while (rises < n) {
      const { levels } = this.schedule.next();
      this.engine.setClocks(levels);
      if (levels[first] === 1) rises++;
    }
    // Finish the cycle: the first clock's falling edge, and whatever comes before it.
    while (!this.schedule.atCycleBoundary(first)) this.engine.setClocks(this.schedule.next().levels);
    this.fastOk = this.fastPossible();
  }

  /** Runs every instant up to and including time `ns`; time is then `ns`. */
  advance(ns: number): void {
    this.catchUp();
    const until = picoseconds(ns, 'advance: the time');
    if (until < this.schedule.nowPs) throw new Error(`advance: time ${ns} ns is before now (${this.now} ns)`);
    for (let n = this.schedule.peekNext(); n && n.timePs <= until; n = this.schedule.peekNext()) this.engine.setClocks(this.schedule.next().levels);
    this.schedule.nowPs = until;
    this.fastOk = this.fastPossible();
  }

  private fastPossible(): boolean {
    const clocks = this.engine.clocks;
    return this.fastCycles !== undefined && clocks.length === 1 && this.schedule.atCycleBoundary(clocks[0]!);
  }

  private catchUp(): void {
    if (this.fastPeriods === 0) return;
    this.schedule.skipPeriods(this.engine.clocks[0]!, this.fastPeriods);
    this.fastPeriods = 0;
  }
}
