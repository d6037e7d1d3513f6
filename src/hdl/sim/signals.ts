// The signals, ports and memories of a flattened design, and the checks every simulator engine applies to them.
import type { Memory, ModuleIR, Net, NetId } from '../ir/netlist.ts';
import { didYouMean } from '../ir/diagnostics.ts';
import { moduleClocks } from '../ir/netlist.ts';
import type { PortInfo } from './simulator.ts';

export const wordsOf = (width: number): number => Math.ceil(width / 32);

/** A value as `words` little-endian 32-bit words (the value must fit). */
export function valueToWords(v: bigint, words: number, into: Uint32Array = new Uint32Array(words), at = 0): Uint32Array {
  for (let k = 0; k < words; k++) into[at + k] = Number((v >> BigInt(32 * k)) & 0xffffffffn);
  return into;
}

export function wordsToValue(from: ArrayLike<number>, at: number, words: number): bigint {
  let v = 0n;
  for (let k = words - 1; k >= 0; k--) v = (v << 32n) | BigInt(from[at + k]! >>> 0);
  return v;
}


export class SignalTable {
  readonly top: string;
  readonly ports: readonly PortInfo[];
  readonly inputs: ReadonlyMap<string, Net>;
  readonly outputs: ReadonlyMap<string, Net>;
  /** The top's clock inputs. */
  readonly clocks: readonly string[];
  /** Top-level reset inputs: whether each is active high. */
  readonly resets: ReadonlyMap<string, boolean>;
  private readonly byName: ReadonlyMap<string, Net>;

  constructor(readonly flat: ModuleIR) {
    this.top = flat.name;
    const ports = flat.ports.map((p) => flat.nets[p]!);
    this.ports = ports.map((n) => ({ name: n.name, width: n.width, direction: n.kind === 'input' ? 'input' : 'output' }));
    this.inputs = new Map(ports.filter((n) => n.kind === 'input').map((n) => [n.name, n]));
    this.outputs = new Map(ports.filter((n) => n.kind === 'output').map((n) => [n.name, n]));
    this.byName = new Map(flat.nets.map((n) => [n.name, n]));
    this.clocks = moduleClocks(flat).map((c) => c.name);
    this.resets = resetInputs(flat);
  }

  /** The timing each clock starts with: the period the design gives it (`m.clockDomain({ period })`), else the default. */
  get clockTimings(): Record<string, { period: number }> {
    return Object.fromEntries(moduleClocks(this.flat).flatMap((c) => (c.periodNs === undefined ? [] : [[c.name, { period: c.periodNs }]])));
  }

  /** The reset `reset(cycles, name?)` holds, and its polarity. */
  resetOf(name: string | undefined): { name: string; activeHigh: boolean } {
    const n = name ?? defaultResetName(this.inputs, this.resets);
    return { name: n, activeHigh: this.resets.get(n) ?? false };
  }

  /** The clock levels of a `setClocks` call, checked: clock names and 0/1 levels. */
  clockLevels(levels: Readonly<Record<string, number>>): [string, 0 | 1][] {
    if (typeof levels !== 'object' || levels === null) throw new Error(`setClocks takes { clockName: 0 | 1, … }; the clocks are ${this.clocks.join(', ') || 'none'}`);
    return Object.entries(levels).map(([name, v]) => {
      if (!this.clocks.includes(name)) throw new Error(`no clock '${name}' in ${this.top}${didYouMean(name, this.clocks)}; the clocks are ${this.clocks.join(', ') || 'none'}`);
      if (v !== 0 && v !== 1) throw new Error(`clock '${name}': a level is 0 or 1, got ${String(v)}`);
      return [name, v];
    });
  }

  /** Any net by hierarchical name. */
  net(name: string): Net {
    const n = this.byName.get(name);
    if (!n) throw new Error(`no signal '${name}' in ${this.top}${didYouMean(name, this.byName.keys())}; ${this.signalList()}`);
    return n;
  }

  /** What can be peeked, briefly: the ports, then registers and other nets up to a limit. */
  private signalList(): string {
    const LIMIT = 40;
    const ports = this.ports.map((p) => p.name);
    const regs = this.flat.regs.map((r) => this.flat.nets[r.q]!.name);
    const rest = [...this.byName.keys()].filter((n) => !n.split('.').at(-1)!.startsWith('_k') && !ports.includes(n) && !regs.includes(n));
    const all = [...new Set([...ports, ...regs, ...rest])];
    const shown = all.slice(0, LIMIT).join(', ');
    return `signals: ${shown}${all.length > LIMIT ? `, … and ${all.length - LIMIT} more` : ''}`;
  }

  input(name: string): Net {
    const n = this.inputs.get(name);
    if (!n) throw new Error(`'${name}' is not an input port of ${this.top}; inputs: ${[...this.inputs.keys()].join(', ')}`);
    return n;
  }

  /** The value to poke into `name`, checked against the input's width. */
  inputValue(name: string, value: bigint | number): { net: Net; value: bigint } {
    const net = this.input(name);
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error(`value ${value} for input '${name}' is not an integer (${net.width} bits, unsigned)`);
    const v = BigInt(value);
    if (v < 0n || v >> BigInt(net.width) !== 0n) throw new Error(`value ${value} does not fit input '${name}' (${net.width} bits, unsigned)`);
    return { net, value: v };
  }

  memoryIndex(path: string): number {
    const i = this.flat.memories.findIndex((m) => m.name === path);
    if (i < 0) throw new Error(`no memory '${path}'; memories: ${this.flat.memories.map((m) => m.name).join(', ') || 'none'}`);
    return i;
  }

  memory(path: string): Memory {
    return this.flat.memories[this.memoryIndex(path)]!;
  }

  /** Checks that `words` fit the memory at `offset` and that each fits its width; returns them as bigints. */
  memoryWords(m: Memory, words: readonly (bigint | number)[], offset: number): bigint[] {
    if (!Number.isInteger(offset) || offset < 0 || offset + words.length > m.depth) throw new Error(`${words.length} words at ${offset} do not fit memory '${m.name}' of ${m.depth}`);
    return words.map((w, j) => {
      if (typeof w === 'number' && !Number.isSafeInteger(w)) throw new Error(`word ${j} (${w}) of memory '${m.name}' is not an integer`);
      const v = BigInt(w);
      if (v < 0n || v >> BigInt(m.width) !== 0n) throw new Error(`word ${j} (${w}) does not fit memory '${m.name}' (${m.width} bits)`);
      return v;
    });
  }

  /** The width check of `port()` handles. */
  narrowPort(name: string): Net {
    const n = this.net(name);
    if (n.width > 32) throw new Error(`port(): '${name}' is ${n.width} bits; use poke/peek for values wider than 32 bits`);
    return n;
  }

  /** Words of one row of `names` (runVectors), each checked to exist with `check`. */
  rowWords(names: readonly string[], check: (name: string) => Net): number {
    return names.reduce((s, n) => s + wordsOf(check(n).width), 0);
  }
}

export { checkStepCycles } from './clockSchedule.ts';

/**
 * The top-level inputs that reset registers, each with whether it is active high: found by following
 * each register's reset net back through copies and inversions (a child's implicit `rst_n` driven by
 * an active-high domain reset is its inversion).
 */
export function resetInputs(flat: ModuleIR): Map<string, boolean> {
  const driver = new Map<NetId, { a: NetId; invert: boolean }>();
  for (const c of flat.cells) if (c.op === 'buf' || c.op === 'not') driver.set(c.out, { a: c.a, invert: c.op === 'not' });
  const out = new Map<string, boolean>();
  for (const r of flat.regs) {
    if (!r.reset) continue;
    let id = r.reset.net;
    let high = r.reset.activeHigh === true;
    for (let d = driver.get(id); d; d = driver.get(id)) {
      id = d.a;
      if (d.invert) high = !high;
    }
    const n = flat.nets[id]!;
    if (n.kind === 'input' && !out.has(n.name)) out.set(n.name, high);
  }
  return out;
}

/** The reset `reset()` holds when given no name: `rst_n` where the top has it, else the top's only reset input. */
export function defaultResetName(inputs: ReadonlyMap<string, Net>, resets: ReadonlyMap<string, boolean>): string {
  if (inputs.has('rst_n') || resets.size !== 1) return 'rst_n';
  return [...resets.keys()][0]!;
}

/** The common reset: `resetName` asserted for `cycles` cycles, then released (active low unless `activeHigh`). */
export function holdReset(sim: { poke(name: string, v: number): void; step(cycles: number): void }, cycles: number, resetName: string, activeHigh = false): void {
  sim.poke(resetName, activeHigh ? 1 : 0);
  sim.step(cycles);
  sim.poke(resetName, activeHigh ? 0 : 1);
}

/** The common runUntil loop. */
export function runUntil<S>(sim: S & { readonly cycle: number; step(): void }, pred: (sim: S) => boolean, maxCycles: number): number {
  for (let i = 0; i <= maxCycles; i++) {
    if (pred(sim)) return i;
    if (i < maxCycles) sim.step();
  }
  throw new Error(`runUntil: condition not met within ${maxCycles} cycles (at cycle ${sim.cycle})`);
}
