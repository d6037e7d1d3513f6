// The netlist IR: typed nets driven by cells, registers, memories and instances; what every back end reads.
//
// Invariants (established by lowering, checked by `validateDesign`):
// - Every net is driven exactly once: by a cell (`out`), a register (`q`), a memory read port (`data`),
//   an instance output, or it is an input port of its module.
// - Operand widths are exact. Binary arithmetic/bitwise cells have a.width == b.width == out.width;
//   comparisons have a.width == b.width and out.width == 1. Front ends insert zext/sext/slice cells;
//   back ends never guess widths.
// - Values are plain bit vectors. Signedness lives in the operation (slt, ashr, sext), not in the net;
//   `Net.signed` only tells viewers how to display the value.
// - Clocks are not nets: a module's clock inputs are listed in `clocks` (the implicit `clk` when it has
//   none declared), and every register and clocked memory port names the clock and edge it samples on
//   (`ClockEdge`; absent: the rising edge of `clk`). Resets are ordinary 1-bit nets named by the register,
//   with their kind and polarity.

/** Where a DSL call was made in the user's TypeScript (1-based line and column). */
export interface SourceLoc {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

export type NetId = number;

export type NetKind =
  | 'input' // module input port (driven from outside)
  | 'output' // module output port (driven by a cell inside)
  | 'wire' // user-declared combinational signal
  | 'reg' // register output q
  | 'node' // anonymous intermediate result of an operator
  | 'memread' // memory read-port data
  | 'instout'; // output of a submodule instance, seen from the parent

/** Names of an enumeration's members, for the SV's typedef enums and waveform display. */
export interface EnumInfo {
  readonly name: string;
  readonly members: readonly { readonly name: string; readonly value: number }[];
}

export interface Net {
  readonly id: NetId;
  /** Legal identifier, unique within its module. Back ends escape only target-language keywords. */
  readonly name: string;
  readonly width: number;
  readonly kind: NetKind;
  /** Display hint only: show as two's complement. */
  readonly signed: boolean;
  readonly loc: SourceLoc;
  readonly enumType?: EnumInfo;
  /** The name was made up by lowering (an operator result no variable names): emitters may inline the net. */
  readonly synthesized?: boolean;
  /** Where the value of a combinational signal driven by one unconditional `set` was assigned (`loc` is where it was declared). */
  readonly assignedAt?: SourceLoc;
  /** A declared false path (`m.crossDomain`): the crossing check does not look through it. The user's reason. */
  readonly falsePath?: string;
}

/**
 * Display hint on a mux lowered from `when`/`switch`: emitters print it as `if`/`case` rather than `?:`.
 * `aLoc`/`bLoc`: where the value reached through each side was assigned (or the signal declared, for a default).
 */
export interface BranchInfo {
  readonly aLoc: SourceLoc;
  readonly bLoc: SourceLoc;
}

type Unary = 'buf' | 'not' | 'redand' | 'redor' | 'redxor' | 'zext' | 'sext';
type Binary = 'and' | 'or' | 'xor' | 'add' | 'sub' | 'mul';
type Compare = 'eq' | 'ne' | 'ult' | 'ule' | 'slt' | 'sle';
type Shift = 'shl' | 'lshr' | 'ashr';

/**
 * Combinational cells. Semantics (w = out.width):
 * - const: out = value (0 <= value < 2^w).
 * - buf: out = a (same width). not: bitwise complement.
 * - redand/redor/redxor: 1-bit reductions of a.
 * - zext/sext: widen a to w (w > a.width).
 * - and/or/xor/add/sub/mul: w-bit result, modulo 2^w (mul is the low w bits of the product, sign-agnostic).
 * - eq/ne/ult/ule/slt/sle: 1-bit comparison of equal-width a and b (gt/ge are built by swapping operands).
 * - shl/lshr/ashr: a shifted by the unsigned value of b (any width); a shift >= w gives 0 (ashr: sign fill).
 * - mux: out = sel ? a : b, sel 1 bit, a/b/out same width.
 * - concat: parts[0] is the most significant; widths sum to w.
 * - slice: out = a[lo + w - 1 : lo].
 */
export type Cell =
  | { readonly op: 'const'; readonly out: NetId; readonly value: bigint }
  | { readonly op: Unary; readonly out: NetId; readonly a: NetId }
  | { readonly op: Binary | Compare | Shift; readonly out: NetId; readonly a: NetId; readonly b: NetId }
  | { readonly op: 'mux'; readonly out: NetId; readonly sel: NetId; readonly a: NetId; readonly b: NetId; readonly branch?: BranchInfo }
  | { readonly op: 'concat'; readonly out: NetId; readonly parts: readonly NetId[] }
  | { readonly op: 'slice'; readonly out: NetId; readonly a: NetId; readonly lo: number };

export type CellOp = Cell['op'];

export interface RegReset {
  /** 'sync': sampled at the clock edge; 'async': takes effect as soon as the reset net is active. */
  readonly kind: 'sync' | 'async';
  /** The reset net (normally the implicit active-low input `rst_n`). */
  readonly net: NetId;
  readonly value: bigint;
  /** The reset is asserted while the net is 1 (absent: while it is 0). */
  readonly activeHigh?: boolean;
}

/** The edge a register or memory port samples on: of one of its module's clock inputs. */
export interface ClockEdge {
  /** The name of a clock input of the module (`ModuleIR.clocks`). */
  readonly clock: string;
  readonly edge: 'rising' | 'falling';
}

/** The edge of everything that names none: the rising edge of the implicit clock `clk`. */
export const implicitClockEdge: ClockEdge = { clock: 'clk', edge: 'rising' };

/** A clock input of a module. */
export interface ClockInput {
  readonly name: string;
  readonly loc: SourceLoc;
  /** Where it sits among the ports: before `ports[portIndex]` (ports.length: after the last). */
  readonly portIndex: number;
  /** Its period in ns, where the design gives one (`m.clockDomain({ period })`): for timing constraints. */
  readonly periodNs?: number;
}

/**
 * A D flip-flop bank. At each rising clock edge: if reset is active, q = reset.value; else if en is absent
 * or 1, q = d. An async reset also forces q = reset.value whenever the reset net is 0. Before any edge,
 * q powers on as `init` (0 if absent) in every simulator and, where the FPGA flow honours it, in hardware.
 */
export interface Reg {
  readonly q: NetId;
  readonly d: NetId;
  readonly en?: NetId;
  readonly reset?: RegReset;
  readonly init?: bigint;
  readonly loc: SourceLoc;
  /** Absent: `implicitClockEdge`. */
  readonly clock?: ClockEdge;
  /** The register is the first flop of a synchronizer: it may sample another clock domain. */
  readonly synchronizer?: boolean;
}

/**
 * A read port. 'sync': at the rising edge, if en is absent or 1, data = mem[addr] (the contents before
 * this edge's writes: read-first); data powers on as 0. 'async': data = mem[addr] combinationally.
 * Either way an address >= depth reads 0.
 */
export interface MemReadPort {
  readonly kind: 'sync' | 'async';
  readonly addr: NetId;
  readonly en?: NetId;
  readonly data: NetId;
  /** A sync port's edge (absent: `implicitClockEdge`). */
  readonly clock?: ClockEdge;
}

/**
 * A write port. At the rising edge, if en is 1 and addr < depth, the selected bits of mem[addr] take data.
 * With a mask (width = memory width / maskGranularity), bit i of mask enables bits
 * [i*g + g - 1 : i*g]. Ports write in list order: when two hit the same word, the later port wins.
 */
export interface MemWritePort {
  readonly addr: NetId;
  readonly data: NetId;
  readonly en: NetId;
  readonly mask?: NetId;
  readonly maskGranularity?: number;
  /** Absent: `implicitClockEdge`. */
  readonly clock?: ClockEdge;
}

export interface Memory {
  /** Unique among the module's nets and memories. */
  readonly name: string;
  readonly width: number;
  readonly depth: number;
  /** Initial contents from word 0 (missing words are 0). */
  readonly init?: readonly bigint[];
  readonly readPorts: readonly MemReadPort[];
  readonly writePorts: readonly MemWritePort[];
  readonly loc: SourceLoc;
}

/**
 * A property, checked at each edge of its clock on the values settled just before it (as a register
 * samples its `d`), while `enable` (absent: always) is 1. The front end folds the `when` path, the
 * user's condition and "the domain's reset is released" into `enable`.
 * - `assert`: `cond` holds; a simulator stops at the first edge where it does not.
 * - `assume`: the environment keeps `cond` true; the formal flow only explores such inputs, and a
 *   simulator stops when a testbench breaks it.
 * - `cover`: counted at each edge where `cond` holds; the formal flow looks for a trace that reaches it.
 * An assertion or assumption with `known` is an X check: `known` has no X or Z bit where enabled, and
 * `cond` is the constant 1. Only a four-state simulator (Icarus) sees X, so two-state engines, the TS
 * simulator and the formal flow find it always holds (the formal flow leaves it out).
 */
export interface Property {
  readonly kind: 'assert' | 'assume' | 'cover';
  /** Unique among the module's properties: it names the property in reports and coverage. */
  readonly name: string;
  /** 1 bit. */
  readonly cond: NetId;
  /** 1 bit. */
  readonly enable?: NetId;
  /** An X check's value (any width). */
  readonly known?: NetId;
  readonly message?: string;
  readonly loc: SourceLoc;
  /** Absent: `implicitClockEdge`. */
  readonly clock?: ClockEdge;
}

/** The nets a property reads. */
export function propertyNets(p: Property): NetId[] {
  return [p.cond, p.enable, p.known].filter((x): x is NetId => x !== undefined);
}

export interface Instance {
  /** Instance name, unique among the module's nets, memories and instances. */
  readonly name: string;
  /** Name of a ModuleIR of the same design. */
  readonly module: string;
  /** Child input port name -> parent net that drives it. Clocks are listed in `clocks`. */
  readonly inputs: Readonly<Record<string, NetId>>;
  /** Child clock input -> the parent's clock that drives it (absent: `clk` drives `clk` where the child is clocked). */
  readonly clocks?: Readonly<Record<string, string>>;
  /** Child output port name -> parent net of kind 'instout' that it drives. */
  readonly outputs: Readonly<Record<string, NetId>>;
  readonly loc: SourceLoc;
}

/** A Verilog source file of a black box, as read at elaboration. */
export interface VerilogSource {
  /** Absolute path. */
  readonly path: string;
  readonly text: string;
}

/** A Verilog parameter override: numbers and bigints are written in decimal, booleans as 1 and 0, strings as string literals. */
export type VerilogParameterValue = number | bigint | boolean | string;

/**
 * A module written in Verilog by the user (`defineBlackBox`). Its ModuleIR holds its ports only (its outputs
 * are driven inside the Verilog): no cells, registers, memories or instances.
 */
export interface BlackBox {
  /** The Verilog module's name. */
  readonly verilogName: string;
  /** Parameter overrides of the instances of this parameterization (`#(.WIDTH(16))`). */
  readonly parameters: Readonly<Record<string, VerilogParameterValue>>;
  /** The files that define it (the one defining the module first). */
  readonly sources: readonly VerilogSource[];
  /** The Verilog name of its clock input, driven by `clk` (the module is `clocked`). */
  readonly clock?: string;
  /** The Verilog name of its reset input: the port net `rst_n` of the ModuleIR. */
  readonly reset?: string;
  /** The reset input is active high: instances connect it to the inverted `rst_n`. */
  readonly resetActiveHigh?: boolean;
  /** Lint rules (Verilator) and warning texts (Icarus) waived in its sources only. */
  readonly lintWaivers?: { readonly verilator: readonly string[]; readonly icarus: readonly string[] };
  /** What the TS simulator runs in its place: its model elaborated with the same parameters (ports checked to match). */
  readonly model?: Design;
}

export interface ModuleIR {
  /** Unique SV module name (one per parameterization). */
  readonly name: string;
  readonly loc: SourceLoc;
  /** The TypeScript parameters this module was elaborated with (for docs and manifests). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Indexed by NetId. */
  readonly nets: readonly Net[];
  /** Port nets in declaration order (kinds 'input' and 'output'); excludes the implicit clock. */
  readonly ports: readonly NetId[];
  /** True if the module has a clock input (it, or a submodule, holds state). */
  readonly clocked: boolean;
  /** Its clock inputs (absent: `clk` where `clocked`). */
  readonly clocks?: readonly ClockInput[];
  readonly cells: readonly Cell[];
  readonly regs: readonly Reg[];
  readonly memories: readonly Memory[];
  readonly instances: readonly Instance[];
  /** Its assertions, assumptions and cover points (absent: none). */
  readonly properties?: readonly Property[];
  /** Present when the module is a black box: written in Verilog, not emitted. */
  readonly blackBox?: BlackBox;
}

export interface Design {
  readonly top: string;
  /** Children before parents; the top module is last. */
  readonly modules: readonly ModuleIR[];
}

/** A module's clock inputs: the declared ones, or the implicit `clk` of a clocked module. */
export function moduleClocks(m: ModuleIR): readonly ClockInput[] {
  return m.clocks ?? (m.clocked ? [{ name: 'clk', loc: m.loc, portIndex: 0 }] : []);
}

/** The clock edge of a register or memory port. */
export function edgeOf(x: { readonly clock?: ClockEdge }): ClockEdge {
  return x.clock ?? implicitClockEdge;
}

/** The clock edges a module's registers, clocked memory ports and properties use, each once, in first-use order. */
export function clockEdgesOf(m: ModuleIR): ClockEdge[] {
  const out = new Map<string, ClockEdge>();
  const add = (x: { readonly clock?: ClockEdge }) => {
    const e = edgeOf(x);
    out.set(`${e.clock}:${e.edge}`, e);
  };
  m.regs.forEach(add);
  for (const mem of m.memories) {
    mem.readPorts.forEach((p) => p.kind === 'sync' && add(p));
    mem.writePorts.forEach(add);
  }
  m.properties?.forEach(add);
  return [...out.values()];
}

/** The parent's clock driving a child's clock input of an instance. */
export function instanceClock(inst: Instance, childClock: string): string {
  return inst.clocks?.[childClock] ?? childClock;
}

/** Whether the reset of a register is asserted for a given value of its net. */
export function resetAsserted(reset: RegReset, value: number | bigint): boolean {
  return (BigInt(value) !== 0n) === (reset.activeHigh === true);
}

/** Bit mask of a width as a bigint. */
export function widthMask(width: number): bigint {
  return (1n << BigInt(width)) - 1n;
}

export function findModule(design: Design, name: string): ModuleIR {
  const m = design.modules.find((x) => x.name === name);
  if (!m) throw new Error(`design has no module '${name}'`);
  return m;
}

/** Module `top` of `design` as a design of its own: it and the modules below it, children first. */
export function subDesign(design: Design, top: string): Design {
  const byName = new Map(design.modules.map((m) => [m.name, m]));
  if (!byName.has(top)) throw new Error(`design ${design.top} has no module '${top}'; its modules: ${design.modules.map((m) => m.name).join(', ')}`);
  const keep = new Set<string>();
  const visit = (name: string) => {
    if (keep.has(name)) return;
    keep.add(name);
    for (const inst of byName.get(name)!.instances) visit(inst.module);
  };
  visit(top);
  return { top, modules: design.modules.filter((m) => keep.has(m.name)) };
}

export function topModule(design: Design): ModuleIR {
  return findModule(design, design.top);
}

/** Operand nets read by a cell, in a fixed order. */
export function cellInputs(cell: Cell): NetId[] {
  switch (cell.op) {
    case 'const':
      return [];
    case 'mux':
      return [cell.sel, cell.a, cell.b];
    case 'concat':
      return [...cell.parts];
    case 'slice':
    case 'buf':
    case 'not':
    case 'redand':
    case 'redor':
    case 'redxor':
    case 'zext':
    case 'sext':
      return [cell.a];
    default:
      return [cell.a, cell.b];
  }
}

/**
 * How many places read each net: cell operands, register inputs, memory ports, instance inputs and
 * properties. `maskNet` maps a write port's mask to the net that is read in its place (an emitter that
 * prints a zero-extended mask by its narrower source counts that source).
 */
export function netReaderCounts(mod: ModuleIR, maskNet: (mask: NetId) => NetId = (m) => m): number[] {
  const readers = mod.nets.map(() => 0);
  const read = (x: NetId | undefined) => {
    if (x !== undefined) readers[x]!++;
  };
  for (const c of mod.cells) cellInputs(c).forEach(read);
  for (const r of mod.regs) [r.d, r.en, r.reset?.net].forEach(read);
  for (const m of mod.memories) {
    for (const p of m.readPorts) [p.addr, p.en].forEach(read);
    for (const p of m.writePorts) [p.addr, p.data, p.en, p.mask === undefined ? undefined : maskNet(p.mask)].forEach(read);
  }
  for (const i of mod.instances) Object.values(i.inputs).forEach(read);
  for (const p of mod.properties ?? []) propertyNets(p).forEach(read);
  return readers;
}

/** Builds a cell from its operands in `cellInputs` order (the inverse of `cellInputs`). */
export function cellFromOperands(op: Exclude<CellOp, 'const'>, out: NetId, args: readonly NetId[], lo = 0): Cell {
  switch (op) {
    case 'mux':
      return { op, out, sel: args[0]!, a: args[1]!, b: args[2]! };
    case 'concat':
      return { op, out, parts: [...args] };
    case 'slice':
      return { op, out, a: args[0]!, lo };
    case 'buf':
    case 'not':
    case 'redand':
    case 'redor':
    case 'redxor':
    case 'zext':
    case 'sext':
      return { op, out, a: args[0]! };
    default:
      return { op, out, a: args[0]!, b: args[1]! };
  }
}

/** The same cell over renamed nets. */
export function mapCell(c: Cell, f: (id: NetId) => NetId): Cell {
  if (c.op === 'const') return { ...c, out: f(c.out) };
  return cellFromOperands(c.op, f(c.out), cellInputs(c).map(f), c.op === 'slice' ? c.lo : 0);
}
