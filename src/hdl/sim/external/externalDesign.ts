// What an external simulator (Verilator, Icarus) is built from: the emitted SystemVerilog and the signals
// and memories Node reaches in it, numbered as the engine's C side numbers them.
import type { Design, Memory, ModuleIR, Net } from '../../ir/netlist.ts';
import { flattenDesign } from '../../ir/flatten.ts';
import { emitSystemVerilog, type EmittedDesign } from '../../emit/index.ts';
import { svName, type SvName } from '../../emit/svNames.ts';
import { SignalTable } from '../signals.ts';

export interface ExternalSignal {
  readonly net: Net;
  /** Where it lives in the SV: a port of the top (path of one identifier) or a register below. */
  readonly sv: SvName;
  readonly isPort: boolean;
}

export interface ExternalMemory {
  readonly memory: Memory;
  readonly sv: SvName;
}

export interface ExternalDesign {
  readonly design: Design;
  readonly flat: ModuleIR;
  readonly table: SignalTable;
  readonly emitted: EmittedDesign;
  /** The top's ports in order, then (with `registers`) every register of the hierarchy. */
  readonly signals: readonly ExternalSignal[];
  readonly memories: readonly ExternalMemory[];
  /** TS name (hierarchical for registers) -> index into `signals`. */
  readonly indexOf: ReadonlyMap<string, number>;
  readonly registers: boolean;
  /**
   * SV names of top inputs that reset registers asynchronously. They power on low like every input, and
   * the TS simulator resets such registers at once (the reset is a level); an event-driven simulator needs
   * a falling edge for that, so the engines pulse these inputs high and low at power-on.
   */
  readonly asyncResetInputs: readonly string[];
}

export function externalDesign(design: Design, opts: { registers: boolean; resetCheckSeed?: number }): ExternalDesign {
  // Black boxes stay opaque: the engine runs their Verilog, and Node reaches no register or memory inside.
  const flat = flattenDesign(design, { blackBoxes: 'opaque' });
  const emitted = emitSystemVerilog(design, { resetCheckSeed: opts.resetCheckSeed });
  const locate = (name: string): SvName => {
    const sv = svName(design, emitted, name);
    if (!sv) throw new Error(`internal: '${name}' of ${design.top} has no SystemVerilog name`);
    return sv;
  };
  const signals: ExternalSignal[] = flat.ports.map((p) => ({ net: flat.nets[p]!, sv: locate(flat.nets[p]!.name), isPort: true }));
  if (opts.registers) for (const r of flat.regs) signals.push({ net: flat.nets[r.q]!, sv: locate(flat.nets[r.q]!.name), isPort: false });
  const memories = flat.memories.map((memory) => ({ memory, sv: locate(memory.name) }));
  const asyncResets = new Set(asyncResetPorts(flat));
  const asyncResetInputs = signals.filter((s) => s.isPort && asyncResets.has(s.net)).map((s) => s.sv.path[0]!);
  return {
    asyncResetInputs,
    design,
    flat,
    table: new SignalTable(flat),
    emitted,
    signals,
    memories,
    indexOf: new Map(signals.map((s, i) => [s.net.name, i])),
    registers: opts.registers,
  };
}

/** The top inputs of a flattened design that reset registers asynchronously (see `asyncResetInputs`). */
export function asyncResetPorts(flat: ModuleIR): Net[] {
  // A submodule's reset is its parent's net through a `buf` per level of hierarchy: follow those to the port.
  const bufferOf = new Map<number, number>();
  for (const c of flat.cells) if (c.op === 'buf') bufferOf.set(c.out, c.a);
  const source = (net: number): number => {
    for (let n = net, hops = 0; hops <= flat.nets.length; hops++) {
      const up = bufferOf.get(n);
      if (up === undefined) return n;
      n = up;
    }
    return net;
  };
  const resets = new Set(flat.regs.filter((r) => r.reset?.kind === 'async').map((r) => source(r.reset!.net)));
  return flat.ports.filter((p) => resets.has(p)).map((p) => flat.nets[p]!);
}

/** The SV `file:line` of a flattened net, and the TypeScript line that made it. */
export function sourceOf(x: ExternalDesign, net: Net): { sv: string; ts: string } {
  const sv = svName(x.design, x.emitted, net.name);
  const line = sv ? x.emitted.lines[sv.module]?.[net.name.split('.').at(-1)!] : undefined;
  return { sv: sv ? `${sv.module}.sv:${line ?? '?'}` : '?', ts: `${net.loc.file}:${net.loc.line}` };
}
