// What an external simulator (Verilator, Icarus) is built from: the emitted SystemVerilog and the signals
// and memories Node reaches in it, numbered as the engine's C side numbers them.
import type { ClockEdge, Design, Memory, ModuleIR, Net } from '../../ir/netlist.ts';
import { clockEdgesOf } from '../../ir/netlist.ts';
import { flattenDesign } from '../../ir/flatten.ts';
import { emitSystemVerilog, type EmittedDesign } from '../../emit/index.ts';
import { svName, type SvName } from '../../emit/svNames.ts';
import { SignalTable } from '../signals.ts';
import { asyncResetRoots, resetAtPowerOn } from './resetAtPowerOn.ts';

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
   * a falling edge for that, so the engines pulse these inputs high and low at power-on. (Resets from
   * logic asserted at power-on: resetAtPowerOn.ts.)
   */
  readonly asyncResetInputs: readonly string[];
  /** The top's clock inputs (SV names as in the TS design), in the order of `SignalTable.clocks`. */
  readonly clocks: readonly string[];
  /** Every clock edge some register or memory port samples on. */
  readonly edges: readonly ClockEdge[];
}

export function externalDesign(design: Design, opts: { registers: boolean; resetCheckSeed?: number }): ExternalDesign {
  // Black boxes stay opaque: the engine runs their Verilog, and Node reaches no register or memory inside.
  const flat = flattenDesign(design, { blackBoxes: 'opaque' });
  // A register an asynchronous reset from logic holds at power-on starts at its reset value (resetAtPowerOn.ts).
  const emitted = emitSystemVerilog(design, { resetCheckSeed: opts.resetCheckSeed, powerOnValues: resetAtPowerOn(design, { resetCheckSeed: opts.resetCheckSeed }) });
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
  const table = new SignalTable(flat);
  return {
    asyncResetInputs,
    design,
    flat,
    table,
    emitted,
    signals,
    memories,
    indexOf: new Map(signals.map((s, i) => [s.net.name, i])),
    registers: opts.registers,
    clocks: table.clocks,
    edges: clockEdgesOf(flat),
  };
}


/**
 * The top inputs of a flattened design that reset registers asynchronously while low (see
 * `asyncResetInputs`): inputs power on at 0, so these resets are asserted at power-on. An active-high
 * asynchronous reset is released at power-on: its registers start at their power-on values.
 */
export function asyncResetPorts(flat: ModuleIR): Net[] {
  const polarity = asyncResetPolarity(flat);
  return flat.ports.filter((p) => polarity.get(p) === 'low').map((p) => flat.nets[p]!);
}

/** The top inputs that reset registers asynchronously, each with the level that asserts it (per its registers). */
export function asyncResetPolarity(flat: ModuleIR): Map<number, 'low' | 'high'> {
  const out = new Map<number, 'low' | 'high'>();
  for (const { net, activeHigh } of asyncResetRoots(flat)) {
    // Asserted at power-on wins: a port that is active low for some register is pulsed at power-on.
    if (!activeHigh || !out.has(net)) out.set(net, activeHigh ? 'high' : 'low');
  }
  const ports = new Set(flat.ports);
  for (const n of [...out.keys()]) if (!ports.has(n)) out.delete(n);
  return out;
}

/** The SV `file:line` of a flattened net, and the TypeScript line that made it. */
export function sourceOf(x: ExternalDesign, net: Net): { sv: string; ts: string } {
  const sv = svName(x.design, x.emitted, net.name);
  const line = sv ? x.emitted.lines[sv.module]?.[net.name.split('.').at(-1)!] : undefined;
  return { sv: sv ? `${sv.module}.sv:${line ?? '?'}` : '?', ts: `${net.loc.file}:${net.loc.line}` };
}
