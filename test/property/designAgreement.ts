// Runs one design on several simulators under the same seeded random stimulus and reports the first
// difference: outputs between edges, every register after each edge, and the fused vector loop; for a
// design with declared clocks, every port and register at every instant of its clocks and between them.
import { flattenDesign, type Design } from '../../src/hdl/index.ts';
import { ClockSchedule, resetInputs, type ClockTiming, type Simulator } from '../../src/hdl/sim/index.ts';
import { createRng } from '../../src/util/seededRandom.ts';

/** Stimulus rows: one bigint per input port per cycle (rst_n mostly high, low now and then). */
export function randomStimulus(inputs: readonly { name: string; width: number }[], seed: number, cycles: number): bigint[][] {
  const rng = createRng(seed);
  return Array.from({ length: cycles }, () => inputs.map((p) => (p.name === 'rst_n' ? (rng.int(8) === 0 ? 0n : 1n) : rng.bits(p.width))));
}

const words = (width: number) => Math.ceil(width / 32);

function pack(rows: readonly bigint[][], widths: readonly number[]): Uint32Array {
  const perRow = widths.reduce((s, w) => s + words(w), 0);
  const out = new Uint32Array(rows.length * perRow);
  let at = 0;
  for (const row of rows)
    row.forEach((v, i) => {
      for (let k = 0; k < words(widths[i]!); k++) out[at++] = Number((v >> BigInt(32 * k)) & 0xffffffffn);
    });
  return out;
}

function unpack(data: Uint32Array, widths: readonly number[], cycles: number): bigint[][] {
  const rows: bigint[][] = [];
  let at = 0;
  for (let c = 0; c < cycles; c++)
    rows.push(
      widths.map((w) => {
        let v = 0n;
        for (let k = 0; k < words(w); k++) v |= BigInt(data[at++]!) << BigInt(32 * k);
        return v;
      }),
    );
  return rows;
}

const hex = (v: bigint) => `0x${v.toString(16)}`;

/** The named nets a compiled simulator can sample besides ports and registers (wires and named nodes; not `_k` temporaries). */
function internalNets(design: Design): string[] {
  const flat = flattenDesign(design);
  const names = flat.nets.filter((n) => n.kind !== 'input' && n.kind !== 'output' && n.kind !== 'reg' && !n.name.split('.').at(-1)!.startsWith('_k')).map((n) => n.name);
  return [...new Set(names)];
}

/**
 * The first disagreement between `sims` (the first is the reference), or null: outputs each cycle
 * before the edge, registers after it; then, from power-on again, the same stimulus through
 * runVectors on every simulator, sampling the outputs and every register (and, on the TS simulators,
 * every named internal net), against what the step-by-step run saw before each edge.
 */
export function firstDisagreement(design: Design, sims: readonly Simulator[], seed: number, cycles: number): string | null {
  const ref = sims[0]!;
  const inputs = ref.ports.filter((p) => p.direction === 'input' && p.name !== 'clk');
  const outputs = ref.ports.filter((p) => p.direction === 'output');
  const flat = flattenDesign(design);
  const regs = flat.regs.map((r) => ({ name: flat.nets[r.q]!.name, width: flat.nets[r.q]!.width }));
  const internal = 'nets' in ref ? internalNets(design).map((name) => ({ name, width: flat.nets.find((n) => n.name === name)!.width })) : [];
  const rows = randomStimulus(inputs, seed, cycles);
  const seen: bigint[][] = [];
  for (let c = 0; c < cycles; c++) {
    for (const s of sims) inputs.forEach((p, i) => s.poke(p.name, rows[c]![i]!));
    const row: bigint[] = [];
    for (const p of outputs) {
      const values = sims.map((s) => s.peek(p.name));
      if (values.some((v) => v !== values[0])) return `cycle ${c}: output ${p.name}: ${sims.map((s, i) => `${s.backend} ${hex(values[i]!)}`).join(', ')}`;
      row.push(values[0]!);
    }
    // What runVectors samples before the edge: the registers as they are now, and (reference only) internal nets.
    for (const r of [...regs, ...internal]) row.push(ref.peek(r.name));
    seen.push(row);
    for (const s of sims) s.step();
    for (const r of regs) {
      const values = sims.map((s) => s.peek(r.name));
      if (values.some((v) => v !== values[0])) return `after the edge of cycle ${c}: register ${r.name}: ${sims.map((s, i) => `${s.backend} ${hex(values[i]!)}`).join(', ')}`;
    }
  }
  const stimulus = pack(rows, inputs.map((p) => p.width));
  for (const s of sims) {
    // Internal nets only where every net can be sampled (the TS simulators); registers everywhere.
    const sampled = [...outputs, ...regs, ...('nets' in s ? internal : [])];
    s.powerOn();
    const got = unpack(s.runVectors(inputs.map((p) => p.name), sampled.map((p) => p.name), stimulus, cycles), sampled.map((p) => p.width), cycles);
    for (let c = 0; c < cycles; c++)
      for (let i = 0; i < sampled.length; i++)
        if (got[c]![i] !== seen[c]![i]) return `runVectors on ${s.backend}, cycle ${c}: ${i < outputs.length ? 'output' : i < outputs.length + regs.length ? 'register' : 'net'} ${sampled[i]!.name} is ${hex(got[c]![i]!)}, step by step it was ${hex(seen[c]![i]!)}`;
  }
  return null;
}

/** How a clocked run moves time (each exercises another path of the engines' clock drivers). */
export type ClockedMode = 'advance' | 'setClocks' | 'step';
export const CLOCKED_MODES: readonly ClockedMode[] = ['advance', 'setClocks', 'step'];

export interface ClockedRun {
  /** Per clock of the top: its waveform (the same on every simulator). */
  readonly timings: Readonly<Record<string, ClockTiming>>;
  readonly seed: number;
  /** Iterations: an instant each (a cycle of the first clock each in 'step' mode). */
  readonly instants: number;
  /** Reset inputs and whether each is active high, besides those found from the registers (`resetInputs`; e.g. a reset computed from two inputs). */
  readonly resets?: Readonly<Record<string, boolean>>;
  /**
   * 'advance': to the time of each instant of the clocks, sometimes first to a time between instants;
   * 'setClocks': each instant's clock levels directly; 'step': cycles of the first clock. Default: drawn from the seed.
   */
  readonly mode?: ClockedMode;
}

/**
 * The first disagreement between `sims` (the first is the reference) on a design with declared clocks,
 * or null. Inputs change at random right after each instant; resets (found from the registers, either
 * polarity) are asserted at power-on, then now and then for a few instants, and sometimes asserted or
 * released at a random time between two instants. Every output and register is compared after every
 * change (pokes, and each instant), named internal nets once at the end (reading them evaluates
 * everything, which would hide the skipping of idle logic from the comparisons that follow).
 */
export function firstClockedDisagreement(design: Design, sims: readonly Simulator[], run: ClockedRun): string | null {
  const ref = sims[0]!;
  const rng = createRng(run.seed);
  const mode = run.mode ?? CLOCKED_MODES[rng.int(CLOCKED_MODES.length)]!;
  const flat = flattenDesign(design);
  const resets = new Map([...resetInputs(flat), ...Object.entries(run.resets ?? {})]);
  const inputs = ref.ports.filter((p) => p.direction === 'input');
  const data = inputs.filter((p) => !resets.has(p.name));
  const outputs = ref.ports.filter((p) => p.direction === 'output');
  const regs = flat.regs.map((r) => flat.nets[r.q]!.name);
  const names = [...outputs.map((p) => p.name), ...regs];
  for (const s of sims) for (const [c, t] of Object.entries(run.timings)) s.setClockTiming(c, t);
  // The instants the simulators' own schedules will take, to stop between them.
  const schedule = new ClockSchedule(ref.clocks);
  for (const [c, t] of Object.entries(run.timings)) schedule.set(c, t);
  const poke = (name: string, v: bigint) => sims.forEach((s) => s.poke(name, v));
  const level = (name: string, asserted: boolean) => (resets.get(name) === asserted ? 1n : 0n);
  /** Per reset input: instants it stays asserted. */
  const held = new Map([...resets.keys()].map((r) => [r, 2 + rng.int(4)]));
  let where = '';
  const differs = (what: string): string | null => {
    for (const n of names) {
      const v = sims.map((s) => s.peek(n));
      if (v.some((x) => x !== v[0])) return `${mode} run, ${where}, ${what}: ${regs.includes(n) ? 'register' : 'output'} ${n}: ${sims.map((s, i) => `${s.backend} ${hex(v[i]!)}`).join(', ')}`;
    }
    return null;
  };
  for (let i = 0; i < run.instants; i++) {
    where = `instant ${i} (${ref.time} ns, cycle ${ref.cycle})`;
    for (const p of data) if (rng.int(2)) poke(p.name, rng.bits(p.width));
    for (const [r, left] of held) {
      if (left === 0 && rng.int(12) === 0) held.set(r, 1 + rng.int(4));
      poke(r, level(r, held.get(r)! > 0));
      if (held.get(r)! > 0) held.set(r, held.get(r)! - 1);
    }
    const d = differs('after the inputs changed');
    if (d) return d;
    if (mode === 'step') {
      for (const s of sims) s.step();
    } else {
      const next = schedule.next();
      // A stop between two instants: an asynchronous reset asserted (or released) there acts at once.
      if (mode === 'advance' && resets.size && rng.int(2) && next.timePs - schedule.nowPs >= 2) {
        const t = schedule.nowPs + 1 + rng.int(next.timePs - schedule.nowPs - 1);
        for (const s of sims) s.advance(t / 1000);
        where = `between instants ${i - 1} and ${i} (${ref.time} ns)`;
        const r = [...resets.keys()][rng.int(resets.size)]!;
        poke(r, level(r, rng.int(2) === 0));
        const e = differs(`after ${r} changed`);
        if (e) return e;
      }
      for (const s of sims) {
        if (mode === 'advance') s.advance(next.timePs / 1000);
        else s.setClocks(next.levels);
      }
      where = `instant ${i} (${JSON.stringify(next.levels)} at ${next.timePs / 1000} ns)`;
    }
    const e = differs('after it');
    if (e) return e;
  }
  for (const what of ['cycle', 'time'] as const) {
    const v = sims.map((s) => s[what]);
    if (v.some((x) => x !== v[0])) return `${mode} run: ${what} ${sims.map((s, i) => `${s.backend} ${v[i]}`).join(', ')}`;
  }
  // Internal nets where every simulator shows them (the TS ones).
  if (sims.every((s) => 'nets' in s)) {
    for (const n of internalNets(design)) {
      const v = sims.map((s) => s.peek(n));
      if (v.some((x) => x !== v[0])) return `${mode} run, at the end: net ${n}: ${sims.map((s, i) => `${s.backend} ${hex(v[i]!)}`).join(', ')}`;
    }
  }
  return null;
}
