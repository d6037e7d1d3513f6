// SystemVerilog pieces both emitter styles print alike: literals, bit selects, memories and instances.
import { basename } from 'node:path';
import type { Cell, ClockEdge, Design, Instance, Memory, ModuleIR, Net, NetId, Property, Reg, RegReset, SourceLoc } from '../ir/netlist.ts';
import { edgeOf, findModule, instanceClock, moduleClocks, widthMask } from '../ir/netlist.ts';
import { svInterface } from './blackBoxes.ts';
import { hexFileName } from './memoryImage.ts';
import { propertyDisplayArguments } from './propertyText.ts';

export const range = (w: number) => (w === 1 ? '' : `[${w - 1}:0] `);
export const literal = (w: number, v: bigint) => (w <= 8 || v < 10n ? `${w}'d${v}` : `${w}'h${v.toString(16)}`);
/**
 * A comment word the tools read as a directive (`// verilator lint_off`, `// synopsys translate_off`,
 * `// pragma …`): a source file named `verilator_tb.ts` must not turn its location comments into one.
 */
const DIRECTIVE_WORD = /^(verilator|synopsys|synthesis|pragma|cadence|ambit|lint_|coverage|spyglass|translate_|full_case|parallel_case)/i;

/** The end-of-line comment naming where in the TypeScript source a line comes from. */
export const where = (loc: SourceLoc) => {
  if (loc.line <= 0) return '';
  const file = basename(loc.file);
  return ` // ${DIRECTIVE_WORD.test(file) ? 'at ' : ''}${file}:${loc.line}`;
};

/** `posedge clk` / `negedge clk_n`. */
export function edgeEvent(e: ClockEdge): string {
  return `${e.edge === 'rising' ? 'posedge' : 'negedge'} ${e.clock}`;
}

/** The event control of a register's always_ff: its clock edge, and the assertion edge of an asynchronous reset. */
export function ffEvent(e: ClockEdge, reset: RegReset | undefined, resetName: string): string {
  const clock = edgeEvent(e);
  return reset?.kind === 'async' ? `${clock} or ${reset.activeHigh ? 'posedge' : 'negedge'} ${resetName}` : clock;
}

/** The condition under which a reset is asserted. */
export function resetTest(reset: RegReset, resetName: string): string {
  return reset.activeHigh ? resetName : `!${resetName}`;
}

/** Registers that share one always_ff: same clock edge, same reset net, kind and polarity. */
export function ffGroupKey(r: Reg): string {
  const e = edgeOf(r);
  return `${e.clock}:${e.edge}|${r.reset ? `${r.reset.kind}:${r.reset.net}:${r.reset.activeHigh === true}` : 'none'}`;
}

/** The module header's port lines: clock inputs where they were declared among the data ports. */
export function portLines(m: ModuleIR, dataPort: (id: NetId) => string): string[] {
  const clocks = moduleClocks(m);
  const out: string[] = [];
  m.ports.forEach((p, i) => {
    for (const c of clocks) if (c.portIndex === i) out.push(`  input  logic ${c.name}`);
    out.push(dataPort(p));
  });
  for (const c of clocks) if (c.portIndex >= m.ports.length) out.push(`  input  logic ${c.name}`);
  return out;
}

/** Clock inputs no register, memory port or instance of the module uses (lint would call them unused). */
export function unusedClocks(m: ModuleIR, design: Design): string[] {
  const used = new Set<string>();
  for (const r of m.regs) used.add(edgeOf(r).clock);
  for (const mem of m.memories) {
    for (const p of mem.writePorts) used.add(edgeOf(p).clock);
    for (const p of mem.readPorts) if (p.kind === 'sync') used.add(edgeOf(p).clock);
  }
  for (const inst of m.instances) for (const c of moduleClocks(findModule(design, inst.module))) used.add(instanceClock(inst, c.name));
  return moduleClocks(m).map((c) => c.name).filter((c) => !used.has(c));
}

/** The 1-based line of each data port in the module header (the header's first port line is line 3). */
export function portLineNumbers(m: ModuleIR): Record<string, number> {
  const lines: Record<string, number> = {};
  const clocks = moduleClocks(m);
  m.ports.forEach((p, i) => (lines[m.nets[p]!.name] = 3 + i + clocks.filter((c) => c.portIndex <= i).length));
  return lines;
}

/** How an emitter names nets: what the memory printer needs from it. */
export interface NetNames {
  readonly nets: readonly Net[];
  readonly consts: ReadonlyMap<NetId, bigint>;
  /** A named net's identifier. */
  name(id: NetId): string;
  /** A net as a whole operand (a literal, an expression or a name). */
  value(id: NetId): string;
  /** A 1-bit net as an operand of `&&`. */
  flag(id: NetId): string;
  /** The operand of the zero extension that drives `id`, if one does. */
  zeroExtended(id: NetId): NetId | undefined;
}

/** The operand of the `zext` cell that drives `id` (from an emitter's map of drivers), if one does. */
export function zeroExtendedFrom(drivers: ReadonlyMap<NetId, Cell>, id: NetId): NetId | undefined {
  const c = drivers.get(id);
  return c?.op === 'zext' ? c.a : undefined;
}

/**
 * The net whose bits are a write port's lane enables: the mask itself, or the operand of the zero extension that
 * drives it, whose lanes past its width are never written and get no statement. Why: besides being shorter, a
 * bit select of a zero extension past the operand's width, as the condition of a lane's nonblocking write, is
 * folded onto the wrong bit of a wider net by Verilator 5.006 (docs/hdl-guide.md, "Simulator bugs worked around").
 */
export function writeMaskOf(n: Pick<NetNames, 'zeroExtended'>, mask: NetId): NetId {
  return n.zeroExtended(mask) ?? mask;
}

/** The low data bits a write port can write: every bit, or its lanes up to the width of writeMaskOf's net. */
export function writtenBits(n: Pick<NetNames, 'zeroExtended' | 'nets'>, mem: Memory, p: Memory['writePorts'][number]): number {
  if (p.mask === undefined) return mem.width;
  const g = p.maskGranularity!;
  return g * Math.min(mem.width / g, n.nets[writeMaskOf(n, p.mask)]!.width);
}

/** Bit `bit` of a named net or a constant. */
export function bitOf(n: NetNames, id: NetId, bit: number): string {
  const v = n.consts.get(id);
  if (v !== undefined) return `1'b${(v >> BigInt(bit)) & 1n}`;
  return n.nets[id]!.width === 1 ? n.name(id) : `${n.name(id)}[${bit}]`;
}

/** The widest operand printed as one `^x`: Verilator holds a value up to 64 bits in one C++ word. */
const XOR_REDUCTION_CHUNK = 64;

/**
 * The XOR reduction of a net wider than 64 bits as the XOR of its 64-bit chunks' reductions (`(^x[63:0]) ^
 * (^x[127:64]) ^ x[128]`), or undefined for a narrower one (`^x`). Why: Verilator 5.006 stops with an internal
 * error ("Reduction over single bit value should have been folded") on `^x` of a wide `x` whose bits are all
 * constant but one (`x = ~{128'd0, b}`); reductions of at most 64 bits are folded correctly.
 */
export function wideXorReductionOf(n: NetNames, id: NetId): string | undefined {
  const w = n.nets[id]!.width;
  if (w <= XOR_REDUCTION_CHUNK) return undefined;
  const parts: string[] = [];
  for (let lo = 0; lo < w; lo += XOR_REDUCTION_CHUNK) {
    const hi = Math.min(w, lo + XOR_REDUCTION_CHUNK) - 1;
    parts.push(hi === lo ? bitOf(n, id, lo) : `(^${sliceOf(n, id, hi, lo)})`);
  }
  return parts.join(' ^ ');
}

/** Bits `hi..lo` of a named net or a constant. */
export function sliceOf(n: NetNames, id: NetId, hi: number, lo: number): string {
  const v = n.consts.get(id);
  if (v !== undefined) return literal(hi - lo + 1, (v >> BigInt(lo)) & widthMask(hi - lo + 1));
  if (lo === 0 && hi === n.nets[id]!.width - 1) return n.name(id);
  return hi === lo ? `${n.name(id)}[${hi}]` : `${n.name(id)}[${hi}:${lo}]`;
}

/** A printed line; `data` marks the line that defines a read port's data net, `declaration` the memory's own. */
export interface MemoryLine {
  readonly text: string;
  readonly data?: NetId;
  readonly declaration?: boolean;
}

/**
 * The loop variable of the memories' power-on loops: `i`, unless the module names something `i` (a
 * loop variable that hides a module-level name draws Verilator's VARHIDDEN).
 */
export function memoryIndexName(mod: Pick<ModuleIR, 'nets' | 'memories' | 'instances'>): string {
  const taken = new Set<string>([...mod.nets.map((x) => x.name), ...mod.memories.map((x) => x.name), ...mod.instances.map((x) => x.name)]);
  let name = 'i';
  for (let k = 0; taken.has(name); k++) name = `i_init${k === 0 ? '' : k}`;
  return name;
}

/** A memory's declaration, power-on contents, write ports and read ports (`id`: its SV identifier; `index`: memoryIndexName). */
export function memoryLines(n: NetNames, mem: Memory, id: string, moduleName: string, index: string): MemoryLine[] {
  const out: MemoryLine[] = [];
  const line = (text: string, data?: NetId) => out.push({ text, ...(data === undefined ? {} : { data }) });
  const aw = Math.max(1, Math.ceil(Math.log2(mem.depth)));
  line('');
  out.push({ text: `  logic ${range(mem.width)}${id} [0:${mem.depth - 1}];${where(mem.loc)}`, declaration: true });
  if (mem.init) line(`  initial $readmemh("${hexFileName(moduleName, mem.name)}", ${id});`);
  else {
    line('`ifndef SYNTHESIS');
    line(`  initial for (int ${index} = 0; ${index} < ${mem.depth}; ${index}++) ${id}[${index}] = '0;`);
    line('`endif');
  }
  const syncReads = mem.readPorts.filter((p) => p.kind === 'sync');
  if (syncReads.length) {
    line('`ifndef SYNTHESIS');
    line('  initial begin');
    for (const p of syncReads) line(`    ${n.name(p.data)} = ${literal(mem.width, 0n)};`);
    line('  end');
    line('`endif');
  }
  const writeEdges = [...new Map(mem.writePorts.map((p) => [edgeEvent(edgeOf(p)), edgeOf(p)])).values()];
  for (const e of writeEdges) {
    line(`  always_ff @(${edgeEvent(e)}) begin`);
    for (const p of mem.writePorts.filter((q) => edgeEvent(edgeOf(q)) === edgeEvent(e))) {
      const { index, guard } = address(n, p.addr, mem.depth, aw);
      const cond = [n.flag(p.en), ...(guard ? [guard] : [])].join(' && ');
      if (p.mask === undefined) {
        line(`    if (${cond}) ${id}[${index}] <= ${n.value(p.data)};`);
        continue;
      }
      const g = p.maskGranularity!;
      const mask = writeMaskOf(n, p.mask);
      for (let i = 0; i < writtenBits(n, mem, p) / g; i++) {
        const [hi, lo] = [i * g + g - 1, i * g];
        line(`    if (${cond} && ${bitOf(n, mask, i)}) ${id}[${index}][${hi}:${lo}] <= ${sliceOf(n, p.data, hi, lo)};`);
      }
    }
    line('  end');
  }
  for (const p of mem.readPorts) {
    const { index, guard } = address(n, p.addr, mem.depth, aw);
    const value = guard ? `(${guard}) ? ${id}[${index}] : ${literal(mem.width, 0n)}` : `${id}[${index}]`;
    if (p.kind === 'async') line(`  assign ${n.name(p.data)} = ${value};`, p.data);
    else line(`  always_ff @(${edgeEvent(edgeOf(p))}) ${p.en === undefined ? '' : `if (${n.value(p.en)}) `}${n.name(p.data)} <= ${value};`, p.data);
  }
  return out;
}

/** The index expression of exactly `aw` bits, and a range guard when the address can exceed the depth. */
function address(n: NetNames, addr: NetId, depth: number, aw: number): { index: string; guard: string | null } {
  const w = n.nets[addr]!.width;
  const v = n.consts.get(addr);
  if (v !== undefined) return { index: literal(aw, v & widthMask(aw)), guard: v < BigInt(depth) ? null : "1'b0" };
  const index = w === aw ? n.name(addr) : w > aw ? sliceOf(n, addr, aw - 1, 0) : `{${aw - w}'d0, ${n.name(addr)}}`;
  const guard = 2 ** w > depth ? `${n.name(addr)} < ${literal(w, BigInt(depth))}` : null;
  return { index, guard };
}

/** An instance: `Module name ( // file:line`, one `.port(value)` per line, `);` (the first line names the instance). */
export function instanceLines(n: NetNames, design: Design, inst: Instance, id: string): string[] {
  const child = findModule(design, inst.module);
  const sv = svInterface(child);
  const conns = [
    ...sv.clocks.map((c) => `.${c.port}(${instanceClock(inst, c.clock)})`),
    ...child.ports.map((p) => {
      const pn = child.nets[p]!.name;
      const parent = inst.inputs[pn] ?? inst.outputs[pn];
      // An active-high black-box reset takes the inverted rst_n.
      const inverted = pn === 'rst_n' && child.blackBox?.resetActiveHigh === true;
      return `.${sv.port(pn)}(${parent === undefined ? '' : inverted ? `!${n.value(parent)}` : n.value(parent)})`;
    }),
  ];
  return ['', `  ${sv.instantiated} ${id} (${where(inst.loc)}`, ...conns.map((c, i) => `    ${c}${i < conns.length - 1 ? ',' : ''}`), '  );'];
}

/**
 * The properties of a module, one block per clock edge: for simulators (`$error` when an assertion or
 * assumption fails), and for the formal flow (`assert`/`assume`/`cover`, read by Yosys under
 * `read_verilog -formal`, which defines FORMAL and not SYNTHESIS). Synthesis reads neither. `text` gives
 * a net's SV expression.
 */
export function propertyLines(mod: ModuleIR, text: (id: NetId) => string): string[] {
  const props = mod.properties ?? [];
  if (props.length === 0) return [];
  const value = (id: NetId) => {
    const s = text(id);
    return /^[A-Za-z_][A-Za-z0-9_$]*$/.test(s) ? s : `(${s})`;
  };
  const edges = [...new Map(props.map((p) => [edgeEvent(edgeOf(p)), edgeOf(p)])).values()];
  const onEdge = (e: ClockEdge, ps: readonly Property[]) => ps.filter((p) => edgeEvent(edgeOf(p)) === edgeEvent(e));
  const checked = props.filter((p) => p.kind !== 'cover');
  const out: string[] = [];
  if (checked.length) {
    // always, not always_ff: Icarus warns that $error in an always_ff cannot be synthesized.
    out.push('', '`ifndef SYNTHESIS', '`ifndef FORMAL', '  // Properties, for simulators: checked at each clock edge on the values before it, as the TS simulator checks them.');
    for (const e of edges.filter((x) => onEdge(x, checked).length)) {
      out.push(`  always @(${edgeEvent(e)}) begin`);
      for (const p of onEdge(e, checked)) {
        const broken = p.known === undefined ? `!${value(p.cond)}` : `$isunknown(${text(p.known)})`;
        const failed = p.enable === undefined ? broken : `${value(p.enable)} && ${broken}`;
        out.push(`    if (${failed}) $error(${propertyDisplayArguments(mod, p, text)});${where(p.loc)}`);
      }
      out.push('  end');
    }
    out.push('`endif', '`endif');
  }
  // X checks are left out: the formal flow is two-state.
  const formal = props.filter((p) => p.known === undefined);
  if (!formal.length) return out;
  out.push('', '`ifdef FORMAL', '  // Properties, for the formal flow (rtgpu prove).');
  for (const e of edges.filter((x) => onEdge(x, formal).length)) {
    out.push(`  always @(${edgeEvent(e)}) begin`);
    for (const p of onEdge(e, formal)) {
      const stmt = `${p.kind} (${text(p.cond)});`;
      out.push(`    ${p.enable === undefined ? stmt : `if (${text(p.enable)}) ${stmt}`}${where(p.loc)}`);
    }
    out.push('  end');
  }
  out.push('`endif');
  return out;
}
