// Functional coverage of a run on the TS simulator: cover points, state machines' states and transitions, and toggles of ports and registers.
import { basename } from 'node:path';
import type { Design, Net } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
import type { CompiledSimulator } from './compiled/compiledSimulator.ts';
import type { Simulator } from './simulator.ts';
import { LockstepSimulator } from './lockstep/lockstepSimulator.ts';

/** What a run covered; JSON as written by `rtgpu sim --coverage`, and merged across runs by `mergeCoverage`. */
export interface CoverageReport {
  readonly design: string;
  /** Runs merged into this report. */
  readonly runs: number;
  /** Clock edges sampled. */
  readonly edges: number;
  /** Per cover point (hierarchical name): where it is declared and the edges it held at. */
  readonly covers: Readonly<Record<string, { readonly where: string; readonly hits: number }>>;
  /** Per register of an enum type (an `fsm` state or an `Enum` register): edges spent in each member, and transitions taken. */
  readonly fsms: Readonly<Record<string, { readonly type: string; readonly where: string; readonly states: Readonly<Record<string, number>>; readonly transitions: Readonly<Record<string, number>> }>>;
  /** Per port and register: the bits seen rising and falling (hexadecimal masks). */
  readonly toggles: Readonly<Record<string, { readonly width: number; readonly rose: string; readonly fell: string }>>;
}

interface Tracked {
  readonly net: Net;
  prev: bigint | undefined;
}

/** The TS simulator of a run: the engine itself, or the TS member of a lockstep run (which checks that the others agree with it). */
function tsSimulatorOf(engine: Simulator): CompiledSimulator | undefined {
  const members = engine instanceof LockstepSimulator ? engine.simulators : [engine];
  return members.find((m): m is CompiledSimulator => m.backend === 'js' || m.backend === 'wasm');
}

/**
 * Samples a TS simulator before every clock edge (CompiledSimulator.onEdge) until `stop`: `engine` is one,
 * or a lockstep run with one among its members (an Error otherwise). Toggles cost a read of every port and
 * register per edge: `toggles: false` leaves them out.
 */
export class CoverageRecorder {
  private edges = 0;
  private readonly fsms: (Tracked & { readonly states: Map<string, number>; readonly transitions: Map<string, number> })[];
  private readonly toggles: (Tracked & { rose: bigint; fell: bigint })[];
  private readonly unsubscribe: () => void;
  private readonly design: Design;

  private readonly sim: CompiledSimulator;

  constructor(design: Design, engine: Simulator, opts: { readonly toggles?: boolean } = {}) {
    const sim = tsSimulatorOf(engine);
    if (!sim) throw new Error(`coverage is measured on the TS simulator: run on it (or lockstep with it among the engines), not on ${engine.backend}`);
    this.sim = sim;
    this.design = design;
    const flat = flattenDesign(design, { blackBoxes: 'model' });
    const regs = flat.regs.map((r) => flat.nets[r.q]!);
    this.fsms = regs.filter((n) => n.enumType).map((net) => ({ net, prev: undefined, states: new Map(), transitions: new Map() }));
    const ports = flat.ports.map((p) => flat.nets[p]!);
    this.toggles = opts.toggles === false ? [] : [...ports, ...regs].map((net) => ({ net, prev: undefined, rose: 0n, fell: 0n }));
    this.unsubscribe = sim.onEdge(() => this.sample());
  }

  /** Stops sampling; the report stays available. */
  stop(): void {
    this.unsubscribe();
  }

  report(): CoverageReport {
    const flat = flattenDesign(this.design, { blackBoxes: 'model' });
    const counts = this.sim.coverCounts();
    const covers = Object.fromEntries((flat.properties ?? []).filter((p) => p.kind === 'cover').map((p) => [p.name, { where: `${basename(p.loc.file)}:${p.loc.line}`, hits: counts[p.name] ?? 0 }]));
    const fsms = Object.fromEntries(
      this.fsms.map((f) => {
        const members = f.net.enumType!.members.map((m) => m.name);
        const states = Object.fromEntries(members.map((m) => [m, f.states.get(m) ?? 0]));
        return [f.net.name, { type: f.net.enumType!.name, where: `${basename(f.net.loc.file)}:${f.net.loc.line}`, states, transitions: Object.fromEntries(f.transitions) }];
      }),
    );
    const toggles = Object.fromEntries(this.toggles.map((t) => [t.net.name, { width: t.net.width, rose: `0x${t.rose.toString(16)}`, fell: `0x${t.fell.toString(16)}` }]));
    return { design: this.design.top, runs: 1, edges: this.edges, covers, fsms, toggles };
  }

  private sample(): void {
    this.edges++;
    for (const f of this.fsms) {
      const v = this.sim.peek(f.net.name);
      const state = f.net.enumType!.members.find((m) => BigInt(m.value) === v)?.name ?? `0x${v.toString(16)}`;
      f.states.set(state, (f.states.get(state) ?? 0) + 1);
      if (f.prev !== undefined && f.prev !== v) {
        const from = f.net.enumType!.members.find((m) => BigInt(m.value) === f.prev)?.name ?? `0x${f.prev.toString(16)}`;
        const arc = `${from}->${state}`;
        f.transitions.set(arc, (f.transitions.get(arc) ?? 0) + 1);
      }
      f.prev = v;
    }
    for (const t of this.toggles) {
      const v = this.sim.peek(t.net.name);
      if (t.prev !== undefined) {
        t.rose |= ~t.prev & v;
        t.fell |= t.prev & ~v;
      }
      t.prev = v;
    }
  }
}

/** Two reports of one design merged: hits, states and transitions added, toggles joined. */
export function mergeCoverage(a: CoverageReport, b: CoverageReport): CoverageReport {
  if (a.design !== b.design) throw new Error(`coverage of ${a.design} and of ${b.design} cannot be merged`);
  const add = (x: Readonly<Record<string, number>>, y: Readonly<Record<string, number>>) => {
    const out: Record<string, number> = { ...x };
    for (const [k, v] of Object.entries(y)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const covers = { ...a.covers };
  for (const [k, v] of Object.entries(b.covers)) covers[k] = { where: v.where, hits: (covers[k]?.hits ?? 0) + v.hits };
  const fsms = { ...a.fsms };
  for (const [k, v] of Object.entries(b.fsms)) fsms[k] = { ...v, states: add(fsms[k]?.states ?? {}, v.states), transitions: add(fsms[k]?.transitions ?? {}, v.transitions) };
  const toggles = { ...a.toggles };
  for (const [k, v] of Object.entries(b.toggles)) {
    const t = toggles[k];
    toggles[k] = t ? { width: v.width, rose: `0x${(BigInt(t.rose) | BigInt(v.rose)).toString(16)}`, fell: `0x${(BigInt(t.fell) | BigInt(v.fell)).toString(16)}` } : v;
  }
  return { design: a.design, runs: a.runs + b.runs, edges: a.edges + b.edges, covers, fsms, toggles };
}

/** A text summary: cover points hit, states and transitions seen, bits toggled both ways, and what was never reached, with its line. */
export function formatCoverage(r: CoverageReport): string {
  const lines = [`coverage of ${r.design}: ${r.runs} run${r.runs === 1 ? '' : 's'}, ${r.edges} clock edges`];
  const covers = Object.entries(r.covers);
  if (covers.length) {
    const missed = covers.filter(([, c]) => c.hits === 0);
    lines.push(`  cover points: ${covers.length - missed.length} of ${covers.length} hit`);
    for (const [name, c] of missed) lines.push(`    never hit: ${name} (${c.where})`);
  }
  for (const [name, f] of Object.entries(r.fsms)) {
    const states = Object.entries(f.states);
    const unvisited = states.filter(([, n]) => n === 0).map(([s]) => s);
    lines.push(`  ${name} (${f.type}, ${f.where}): ${states.length - unvisited.length} of ${states.length} states, ${Object.keys(f.transitions).length} transitions${unvisited.length ? `; never in ${unvisited.join(', ')}` : ''}`);
  }
  const toggles = Object.entries(r.toggles);
  if (toggles.length) {
    let bits = 0;
    let both = 0;
    const partial: string[] = [];
    for (const [name, t] of toggles) {
      const mask = (1n << BigInt(t.width)) - 1n;
      const done = BigInt(t.rose) & BigInt(t.fell) & mask;
      const n = popcount(done);
      bits += t.width;
      both += n;
      if (n < t.width) partial.push(`${name} ${n}/${t.width}`);
    }
    lines.push(`  toggles: ${both} of ${bits} bits of ports and registers rose and fell (${((100 * both) / Math.max(1, bits)).toFixed(1)}%)`);
    if (partial.length) lines.push(`    not every bit: ${partial.slice(0, 12).join(', ')}${partial.length > 12 ? `, … ${partial.length - 12} more` : ''}`);
  }
  return lines.join('\n');
}

function popcount(v: bigint): number {
  let n = 0;
  for (; v; v &= v - 1n) n++;
  return n;
}
