// Inlines every instance of a design into one module whose net names are hierarchical paths ("u_fifo.count").
import { hdlError } from './diagnostics.ts';
import type { Cell, ClockEdge, Design, Instance, Memory, ModuleIR, Net, NetId, Property, Reg } from './netlist.ts';
import { edgeOf, findModule, instanceClock, mapCell, topModule } from './netlist.ts';

export interface FlattenOptions {
  /**
   * 'opaque' (the default): a black box stays its ports, wires that its instance's connections drive or
   * read; its outputs are driven by nothing in the netlist (its Verilog drives them), and it adds no
   * registers or memories. 'model': its TypeScript model is inlined in its place (what the TS simulator
   * runs); a black box without one is an HdlError.
   */
  readonly blackBoxes?: 'opaque' | 'model';
}

/**
 * The flat module keeps the top's ports (same names, same order). A child's input port becomes a 'wire'
 * driven by a `buf` from the parent's net; the parent's 'instout' net is driven by a `buf` from the child's
 * output. Back ends that care about speed propagate these copies away. Every register, memory port and property
 * names a clock input of the top (absent, as in the IR: the rising edge of `clk`).
 */
export function flattenDesign(design: Design, opts: FlattenOptions = {}): ModuleIR {
  const nets: Net[] = [];
  const cells: Cell[] = [];
  const regs: Reg[] = [];
  const memories: Memory[] = [];
  const properties: Property[] = [];
  const models = opts.blackBoxes === 'model';

  const inline = (des: Design, mod: ModuleIR, prefix: string, isTop: boolean, topClock: (name: string) => string): NetId[] => {
    const clock = (x: { readonly clock?: ClockEdge }): { clock?: ClockEdge } => {
      const e = edgeOf(x);
      const name = topClock(e.clock);
      return name === 'clk' && e.edge === 'rising' ? {} : { clock: { clock: name, edge: e.edge } };
    };
    const map: NetId[] = mod.nets.map((n) => {
      const id = nets.length;
      const kind = !isTop && (n.kind === 'input' || n.kind === 'output') ? 'wire' : n.kind;
      nets.push({ ...n, id, kind, name: prefix + n.name });
      return id;
    });
    const m = (id: NetId) => map[id]!;
    for (const c of mod.cells) cells.push(mapCell(c, m));
    for (const r of mod.regs) {
      regs.push({
        ...r,
        q: m(r.q),
        d: m(r.d),
        en: r.en === undefined ? undefined : m(r.en),
        reset: r.reset && { ...r.reset, net: m(r.reset.net) },
        clock: undefined,
        ...clock(r),
      });
    }
    for (const mem of mod.memories) {
      memories.push({
        ...mem,
        name: prefix + mem.name,
        readPorts: mem.readPorts.map((p) => ({ ...p, addr: m(p.addr), data: m(p.data), en: p.en === undefined ? undefined : m(p.en), clock: undefined, ...(p.kind === 'sync' ? clock(p) : {}) })),
        writePorts: mem.writePorts.map((p) => ({
          ...p,
          addr: m(p.addr),
          data: m(p.data),
          en: m(p.en),
          mask: p.mask === undefined ? undefined : m(p.mask),
          clock: undefined,
          ...clock(p),
        })),
      });
    }
    for (const p of mod.properties ?? []) {
      properties.push({ ...p, name: prefix + p.name, cond: m(p.cond), enable: p.enable === undefined ? undefined : m(p.enable), known: p.known === undefined ? undefined : m(p.known), clock: undefined, ...clock(p) });
    }
    for (const inst of mod.instances) {
      const declared = findModule(des, inst.module);
      const path = `${prefix}${inst.name}`;
      const body = models && declared.blackBox ? modelOf(declared, inst, path) : { design: des, module: declared };
      const child = body.module;
      const childMap = inline(body.design, child, `${path}.`, false, (c) => topClock(instanceClock(inst, c)));
      const portId = (name: string) => {
        const id = child.ports.find((p) => child.nets[p]!.name === name);
        return id === undefined ? undefined : childMap[id]!;
      };
      for (const [port, parentNet] of Object.entries(inst.inputs)) {
        const id = portId(port);
        // A model may leave its black box's reset unused (elaboration checked that nothing else is missing).
        if (id === undefined && child !== declared) continue;
        if (id === undefined) throw new Error(`module '${child.name}' has no port '${port}'`);
        cells.push({ op: 'buf', out: id, a: m(parentNet) });
      }
      for (const [port, parentNet] of Object.entries(inst.outputs)) {
        const id = portId(port);
        if (id === undefined) throw new Error(`module '${child.name}' has no port '${port}'`);
        cells.push({ op: 'buf', out: m(parentNet), a: id });
      }
    }
    return map;
  };

  const top = topModule(design);
  const topMap = inline(design, top, '', true, (c) => c);
  return {
    name: top.name,
    loc: top.loc,
    params: top.params,
    nets,
    ports: top.ports.map((p) => topMap[p]!),
    clocked: top.clocked,
    ...(top.clocks ? { clocks: top.clocks } : {}),
    cells,
    regs,
    memories,
    instances: [],
    ...(properties.length ? { properties } : {}),
  };
}

/** The design of a black box's model, inlined in the black box's place. */
function modelOf(blackBox: ModuleIR, inst: Instance, path: string): { design: Design; module: ModuleIR } {
  const { model, verilogName } = blackBox.blackBox!;
  if (!model) {
    throw hdlError(
      'BlackBoxModel',
      `the TS simulator cannot run black box '${verilogName}' (instance '${path}'): it has no TypeScript model; give defineBlackBox a { model }, or simulate on verilator or icarus`,
      inst.loc,
      [{ message: `black box '${verilogName}' declared here`, loc: blackBox.loc }],
    );
  }
  return { design: model, module: topModule(model) };
}
