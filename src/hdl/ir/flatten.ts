// Inlines every instance of a design into one module whose net names are hierarchical paths ("u_fifo.count").
import type { Cell, Design, Memory, ModuleIR, Net, NetId, Reg } from './netlist.ts';
import { findModule, mapCell } from './netlist.ts';

/**
 * The flat module keeps the top's ports (same names, same order). A child's input port becomes a 'wire'
 * driven by a `buf` from the parent's net; the parent's 'instout' net is driven by a `buf` from the child's
 * output. Back ends that care about speed propagate these copies away.
 */
export function flattenDesign(design: Design): ModuleIR {
  const nets: Net[] = [];
  const cells: Cell[] = [];
  const regs: Reg[] = [];
  const memories: Memory[] = [];

  const inline = (mod: ModuleIR, prefix: string, isTop: boolean): NetId[] => {
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
      });
    }
    for (const mem of mod.memories) {
      memories.push({
        ...mem,
        name: prefix + mem.name,
        readPorts: mem.readPorts.map((p) => ({ ...p, addr: m(p.addr), data: m(p.data), en: p.en === undefined ? undefined : m(p.en) })),
        writePorts: mem.writePorts.map((p) => ({
          ...p,
          addr: m(p.addr),
          data: m(p.data),
          en: m(p.en),
          mask: p.mask === undefined ? undefined : m(p.mask),
        })),
      });
    }
    for (const inst of mod.instances) {
      const child = findModule(design, inst.module);
      const childMap = inline(child, `${prefix}${inst.name}.`, false);
      const portId = (name: string) => {
        const id = child.ports.find((p) => child.nets[p]!.name === name);
        if (id === undefined) throw new Error(`module '${child.name}' has no port '${name}'`);
        return childMap[id]!;
      };
      for (const [port, parentNet] of Object.entries(inst.inputs)) cells.push({ op: 'buf', out: portId(port), a: m(parentNet) });
      for (const [port, parentNet] of Object.entries(inst.outputs)) cells.push({ op: 'buf', out: m(parentNet), a: portId(port) });
    }
    return map;
  };

  const top = findModule(design, design.top);
  const topMap = inline(top, '', true);
  return {
    name: top.name,
    loc: top.loc,
    params: top.params,
    nets,
    ports: top.ports.map((p) => topMap[p]!),
    clocked: top.clocked,
    cells,
    regs,
    memories,
    instances: [],
  };
}
