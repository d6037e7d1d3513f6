// The top's clocks as the synthesis handoff describes them: name, period, and the edges, resets, register bits and memories of each, read from the flat netlist.
import { flattenDesign } from '../ir/flatten.ts';
import type { Cell, Design, ModuleIR, NetId } from '../ir/netlist.ts';
import { edgeOf, moduleClocks, topModule } from '../ir/netlist.ts';
import { svInterface } from './blackBoxes.ts';

export type ClockEdgeName = 'rising' | 'falling';

/** A reset that registers of one clock use. */
export interface ClockReset {
  /** The top's input port (its SystemVerilog name), or the hierarchical name of a net inside the design (a reset synchronizer's output). */
  readonly signal: string;
  /** True when `signal` is an input port of the top. */
  readonly input: boolean;
  readonly kind: 'sync' | 'async';
  /** The level of `signal` that asserts it (seen through the inverters on the way: a child's `rst_n` from an active-high reset is active high). */
  readonly active: 'high' | 'low';
}

/** A clock input of the top. */
export interface DesignClock {
  /** The clock port's SystemVerilog name. */
  readonly name: string;
  /** Its period in ns where the design gives one (`m.clockDomain({ clock, period })`); absent: unknown. */
  readonly periodNs?: number;
  /** The edges registers and clocked memory ports sample on (none: nothing in the netlist is clocked by it). */
  readonly edges: readonly ClockEdgeName[];
  /** Bits of the netlist's registers per edge (memories, black boxes and their read registers not included). */
  readonly flipFlopBits: Readonly<Record<ClockEdgeName, number>>;
  /** The resets of its registers, by signal. */
  readonly resets: readonly ClockReset[];
  /** Memories with a write or synchronous read port on it (hierarchical names). */
  readonly memories: readonly string[];
}

/**
 * Every clock input of `design`'s top in port order (the implicit `clk` of a design that declares none;
 * none for a combinational design). Black boxes are opaque: their own flip-flops are not counted.
 */
export function designClocks(design: Design): DesignClock[] {
  const top = topModule(design);
  const clocks = moduleClocks(top);
  if (!clocks.length) return [];
  const flat = flattenDesign(design);
  const sv = svInterface(top);
  // Called in port order: the identifiers are numbered that way.
  const portName = new Map(top.ports.map((id) => [top.nets[id]!.name, sv.port(top.nets[id]!.name)] as const));
  const resetSource = resetSources(flat, portName);
  return clocks.map((c, i) => {
    const bits: Record<ClockEdgeName, number> = { rising: 0, falling: 0 };
    const edges = new Set<ClockEdgeName>();
    const resets = new Map<string, ClockReset>();
    for (const r of flat.regs) {
      const e = edgeOf(r);
      if (e.clock !== c.name) continue;
      bits[e.edge] += flat.nets[r.q]!.width;
      edges.add(e.edge);
      if (r.reset) {
        const src = resetSource(r.reset.net);
        const reset: ClockReset = { signal: src.signal, input: src.input, kind: r.reset.kind, active: (r.reset.activeHigh === true) !== src.inverted ? 'high' : 'low' };
        resets.set(`${reset.signal}/${reset.kind}/${reset.active}`, reset);
      }
    }
    const memories: string[] = [];
    for (const m of flat.memories) {
      const ports = [...m.writePorts, ...m.readPorts.filter((p) => p.kind === 'sync')].map(edgeOf).filter((e) => e.clock === c.name);
      for (const e of ports) edges.add(e.edge);
      if (ports.length) memories.push(m.name);
    }
    return {
      name: sv.clocks[i]?.port ?? c.name,
      ...(c.periodNs !== undefined ? { periodNs: c.periodNs } : {}),
      edges: (['rising', 'falling'] as const).filter((e) => edges.has(e)),
      flipFlopBits: bits,
      resets: [...resets.values()].sort((a, b) => a.signal.localeCompare(b.signal) || a.kind.localeCompare(b.kind) || a.active.localeCompare(b.active)),
      memories,
    };
  });
}

/** Where a reset net comes from: back through the copies and inverters flattening and domain adapters put on its way. */
function resetSources(flat: ModuleIR, portName: ReadonlyMap<string, string>): (net: NetId) => { signal: string; input: boolean; inverted: boolean } {
  const driver = new Map<NetId, Cell>();
  for (const c of flat.cells) if (c.op === 'buf' || c.op === 'not') driver.set(c.out, c);
  return (net) => {
    let id = net;
    let inverted = false;
    for (let cell = driver.get(id); cell && 'a' in cell; cell = driver.get(id)) {
      if (cell.op === 'not') inverted = !inverted;
      id = cell.a;
    }
    const n = flat.nets[id]!;
    const input = n.kind === 'input';
    return { signal: input ? (portName.get(n.name) ?? n.name) : n.name, input, inverted };
  };
}
