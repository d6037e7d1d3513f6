// Random eDSL designs for property tests: fast-check draws raw choices, which read as TypeScript source
// that is both what runs (evaluated against the real DSL) and what a failure prints to reproduce it.
import fc from 'fast-check';
import * as hdl from '../../src/hdl/index.ts';
import type { Design } from '../../src/hdl/index.ts';

/** Widths stay below this after every operation (wide enough for 3-, 4- and 5-word values). */
export const MAX_WIDTH = 140;

/** One operation: which kind and raw operand choices (read modulo what exists, so any shrink stays valid). */
export interface RawOp {
  readonly kind: number;
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly k: number;
}

export interface RawRegister {
  readonly width: number;
  /** 0: no reset (powers on at 0), 1: synchronous reset, 2: asynchronous reset. */
  readonly reset: number;
  readonly resetValue: bigint;
  /** 0: set every cycle, 1: under one condition, 2: when/elsewhen/otherwise. */
  readonly style: number;
  readonly next: number;
  readonly alt: number;
  readonly cond: number;
  readonly cond2: number;
}

export interface RawMemory {
  readonly width: number;
  readonly addrBits: number;
  readonly we: number;
  readonly addr: number;
  readonly data: number;
  readonly init: readonly bigint[];
  /** A write mask: none (one time in three), else lanes of a width that divides the word's. */
  readonly lanes: number;
  readonly mask: number;
}

export interface RawFsm {
  readonly states: number;
  readonly edges: readonly { readonly from: number; readonly to: number; readonly cond: number }[];
}

export interface RawModule {
  readonly inputs: readonly number[];
  readonly regs: readonly RawRegister[];
  readonly memory: RawMemory | null;
  readonly fsm: RawFsm | null;
  readonly ops: readonly RawOp[];
  readonly outputs: readonly number[];
}

export interface RawDesign extends RawModule {
  readonly child: RawModule | null;
  /** Inputs of the child instance (pool choices). */
  readonly childInputs: readonly number[];
}

// ------------------------------------------------------------------------------------------------
// Arbitraries

export const width = fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom(31, 32, 33, 63, 64, 65, 96, 127, 128, 129), fc.integer({ min: 1, max: MAX_WIDTH }));
export const choice = fc.nat();
// The kind is read modulo the number of operation kinds.
export const opFields = { kind: fc.nat(255), a: choice, b: choice, c: choice, k: choice };
export const op: fc.Arbitrary<RawOp> = fc.record(opFields);
/** The fields of each raw record (randomClockedDesign.ts extends them). */
export const registerFields = {
  width,
  reset: fc.nat(2),
  resetValue: fc.bigInt({ min: 0n, max: (1n << BigInt(MAX_WIDTH)) - 1n }),
  style: fc.nat(2),
  next: choice,
  alt: choice,
  cond: choice,
  cond2: choice,
};
export const register: fc.Arbitrary<RawRegister> = fc.record(registerFields);
export const memoryFields = {
  width,
  addrBits: fc.integer({ min: 1, max: 5 }),
  we: choice,
  addr: choice,
  data: choice,
  init: fc.array(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { maxLength: 4 }),
  lanes: choice,
  mask: choice,
};
export const memory: fc.Arbitrary<RawMemory> = fc.record(memoryFields);
export const fsmFields = {
  states: fc.integer({ min: 2, max: 5 }),
  edges: fc.array(fc.record({ from: choice, to: choice, cond: choice }), { maxLength: 6 }),
};
export const fsmArb: fc.Arbitrary<RawFsm> = fc.record(fsmFields);

export const moduleFields = (maxOps: number) => ({
  inputs: fc.array(width, { minLength: 1, maxLength: 4 }),
  regs: fc.array(register, { maxLength: 4 }),
  memory: fc.option(memory, { freq: 3 }),
  fsm: fc.option(fsmArb, { freq: 3 }),
  ops: fc.array(op, { minLength: 1, maxLength: maxOps }),
  outputs: fc.array(choice, { minLength: 1, maxLength: 4 }),
});

/** A random design: a module with registers, a memory, a state machine, and sometimes a child module. */
export function randomDesignArb(maxOps = 24): fc.Arbitrary<RawDesign> {
  return fc.record({
    ...moduleFields(maxOps),
    child: fc.option(fc.record(moduleFields(Math.max(1, maxOps >> 1))), { freq: 3 }),
    childInputs: fc.array(choice, { minLength: 4, maxLength: 4 }),
  });
}

// ------------------------------------------------------------------------------------------------
// Reading raw choices as source

/** A value in scope: the TypeScript expression that names it and its width. */
export interface Value {
  readonly code: string;
  readonly width: number;
}

/** Source lines of one module body, and the values they define. */
export class Body {
  readonly lines: string[] = [];
  /** The values operations pick from (a module with several clocks swaps in one pool per clock). */
  pool: Value[] = [];
  private next = 0;

  constructor(readonly indent = '    ') {}

  pick(choice: number): Value {
    return this.pool[choice % this.pool.length]!;
  }

  /** `const vN = code;` as a new pool value (capped at MAX_WIDTH). */
  define(code: string, width: number): Value {
    const name = `v${this.next++}`;
    const capped = width > MAX_WIDTH ? { code: `(${code}).trunc(${MAX_WIDTH})`, width: MAX_WIDTH } : { code, width };
    this.lines.push(`${this.indent}const ${name} = ${capped.code};`);
    const v = { code: name, width: capped.width };
    this.pool.push(v);
    return v;
  }

  line(text: string): void {
    this.lines.push(`${this.indent}${text}`);
  }
}

/** `v` at exactly width `w`: truncated or zero-extended. */
export const fit = (v: Value, w: number): string => (v.width === w ? v.code : v.width > w ? `${v.code}.trunc(${w})` : `${v.code}.zext(${w})`);
/** A 1-bit condition from any value. */
export const cond = (v: Value, k: number): string => (v.width === 1 ? v.code : `${v.code}.bit(${k % v.width})`);
export const big = (x: bigint, w: number): string => {
  const v = x & ((1n << BigInt(w)) - 1n);
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? String(v) : `0x${v.toString(16)}n`;
};

type OpReader = (b: Body, o: RawOp, ctx: ModuleContext) => void;

export interface ModuleContext {
  readonly memory: { readonly name: string; readonly width: number; readonly addrBits: number } | null;
  readonly fsm: { readonly name: string; readonly states: number } | null;
}

const binary = (method: string, widthOf: (a: number, b: number) => number): OpReader => (b, o) => {
  const x = b.pick(o.a);
  const y = b.pick(o.b);
  b.define(`${x.code}.${method}(${y.code})`, widthOf(x.width, y.width));
};
const signedBinary = (method: string, widthOf: (a: number, b: number) => number, bool = false): OpReader => (b, o) => {
  const x = b.pick(o.a);
  const y = b.pick(o.b);
  b.define(`${x.code}.asSInt().${method}(${y.code}.asSInt())${bool ? '' : '.asUInt()'}`, widthOf(x.width, y.width));
};
const max = (a: number, b: number) => Math.max(a, b);
const one = () => 1;

export const OP_READERS: readonly OpReader[] = [
  binary('add', max),
  binary('sub', max),
  binary('mul', max),
  binary('addw', (a, b) => max(a, b) + 1),
  binary('subw', (a, b) => max(a, b) + 1),
  binary('mulw', (a, b) => a + b),
  binary('and', max),
  binary('or', max),
  binary('xor', max),
  (b, o) => {
    const x = b.pick(o.a);
    b.define(`${x.code}.not()`, x.width);
  },
  binary('eq', one),
  binary('ne', one),
  binary('lt', one),
  binary('le', one),
  binary('gt', one),
  binary('ge', one),
  signedBinary('lt', one, true),
  signedBinary('ge', one, true),
  signedBinary('add', max),
  signedBinary('mul', max),
  signedBinary('subw', (a, c) => max(a, c) + 1),
  (b, o) => {
    const x = b.pick(o.a);
    b.define(`${x.code}.shl(${o.k % (x.width + 2)})`, x.width);
  },
  (b, o) => {
    const x = b.pick(o.a);
    b.define(`${x.code}.shr(${o.k % (x.width + 2)})`, x.width);
  },
  (b, o) => {
    const x = b.pick(o.a);
    b.define(`${x.code}.asSInt().shr(${o.k % (x.width + 2)}).asUInt()`, x.width);
  },
  // Dynamic shifts: the amount is a value of up to 8 bits (may exceed the width).
  (b, o) => {
    const x = b.pick(o.a);
    const n = b.pick(o.b);
    b.define(`${x.code}.shl(${fit(n, Math.min(n.width, 1 + (o.k % 8)))})`, x.width);
  },
  (b, o) => {
    const x = b.pick(o.a);
    const n = b.pick(o.b);
    b.define(`${x.code}.shr(${fit(n, Math.min(n.width, 1 + (o.k % 8)))})`, x.width);
  },
  (b, o) => {
    const x = b.pick(o.a);
    const n = b.pick(o.b);
    b.define(`${x.code}.asSInt().shr(${fit(n, Math.min(n.width, 1 + (o.k % 8)))}).asUInt()`, x.width);
  },
  (b, o) => {
    const s = b.pick(o.c);
    const x = b.pick(o.a);
    const y = b.pick(o.b);
    b.define(`mux(${cond(s, o.k)}, ${x.code}, ${y.code})`, max(x.width, y.width));
  },
  (b, o) => {
    const x = b.pick(o.a);
    const lo = o.b % x.width;
    const hi = lo + (o.c % (x.width - lo));
    b.define(`${x.code}.bits(${hi}, ${lo})`, hi - lo + 1);
  },
  (b, o) => {
    const x = b.pick(o.a);
    const y = b.pick(o.b);
    b.define(`cat(${x.code}, ${y.code})`, x.width + y.width);
  },
  (b, o) => {
    const x = b.pick(o.a);
    const w = Math.min(MAX_WIDTH, x.width + (o.k % 70));
    b.define(`${x.code}.zext(${w})`, w);
  },
  (b, o) => {
    const x = b.pick(o.a);
    const w = Math.min(MAX_WIDTH, x.width + (o.k % 70));
    b.define(`${x.code}.sext(${w}).asUInt()`, w);
  },
  (b, o) => {
    const x = b.pick(o.a);
    b.define(`${x.code}.${['andR', 'orR', 'xorR'][o.k % 3]}()`, 1);
  },
  (b, o) => {
    const w = 1 + (o.a % MAX_WIDTH);
    b.define(`lit(${big(BigInt(o.b) * 0x9e3779b97f4a7c15n + BigInt(o.c), w)}, ${w})`, w);
  },
  (b, o) => {
    const x = b.pick(o.a);
    b.define(`${x.code}.asSInt().neg().asUInt()`, x.width);
  },
  (b, o) => {
    const x = b.pick(o.a);
    const i = b.pick(o.b);
    b.define(`${x.code}.bit(${fit(i, Math.min(i.width, 1 + (o.k % 8)))})`, 1);
  },
  // A wire under switch: cases on a 2-bit selector, with a default.
  (b, o) => {
    const s = b.pick(o.c);
    const x = b.pick(o.a);
    const y = b.pick(o.b);
    const w = max(x.width, y.width);
    const wire = b.define(`m.wire(UInt(${w}), { default: 0 })`, w);
    b.line(`m.switch(${fit(s, 2)}).is(${o.k % 4}, () => ${wire.code}.set(${x.code})).is([${(o.k + 1) % 4}, ${(o.k + 2) % 4}], () => ${wire.code}.set(${y.code}));`);
  },
  // A wire under when/elsewhen/otherwise.
  (b, o) => {
    const c1 = b.pick(o.c);
    const c2 = b.pick(o.k);
    const x = b.pick(o.a);
    const y = b.pick(o.b);
    const w = max(x.width, y.width);
    const wire = b.define(`m.wire(UInt(${w}))`, w);
    b.line(`m.when(${cond(c1, o.k)}, () => ${wire.code}.set(${x.code})).elsewhen(${cond(c2, o.a)}, () => ${wire.code}.set(${y.code})).otherwise(() => ${wire.code}.set(${fit(x, w)}.xor(${fit(y, w)})));`);
  },
  // Memory reads (an add when the module has no memory).
  (b, o, ctx) => {
    if (!ctx.memory) return binary('add', max)(b, o, ctx);
    const a = b.pick(o.a);
    b.define(`${ctx.memory.name}.readAsync(${fit(a, ctx.memory.addrBits)})`, ctx.memory.width);
  },
  (b, o, ctx) => {
    if (!ctx.memory) return binary('xor', max)(b, o, ctx);
    const a = b.pick(o.a);
    b.define(`${ctx.memory.name}.read(${fit(a, ctx.memory.addrBits)})`, ctx.memory.width);
  },
  // The state machine's state as a condition.
  (b, o, ctx) => {
    if (!ctx.fsm) return binary('or', max)(b, o, ctx);
    b.define(`${ctx.fsm.name}.is('s${o.a % ctx.fsm.states}')`, 1);
  },
];

/** The body of one module: registers, memory, state machine, operations, register updates, outputs. */
export interface PrintedModule {
  readonly ports: string;
  readonly body: readonly string[];
  readonly outputWidths: readonly number[];
}

interface ChildUse {
  readonly name: string;
  readonly raw: RawModule;
  readonly printed: PrintedModule;
  readonly inputs: readonly number[];
}

export function moduleBody(raw: RawModule, child: ChildUse | null): PrintedModule {
  const b = new Body();
  raw.inputs.forEach((w, i) => b.pool.push({ code: `io.i${i}`, width: w }));
  const regs = raw.regs.map((r, i) => {
    const reset = r.reset === 0 ? '' : `, { reset: ${big(r.resetValue, r.width)}${r.reset === 2 ? ', async: true' : ''} }`;
    const v = b.define(`m.reg(UInt(${r.width})${reset})`, r.width);
    return { raw: r, value: v, index: i };
  });
  const ctx: { memory: ModuleContext['memory']; fsm: ModuleContext['fsm'] } = { memory: null, fsm: null };
  if (raw.memory) {
    const mem = raw.memory;
    const words = mem.init.slice(0, 1 << mem.addrBits);
    const init = words.length ? `, { init: [${words.map((x) => big(x, mem.width)).join(', ')}] }` : '';
    b.line(`const mem = m.memory(UInt(${mem.width}), ${1 << mem.addrBits}${init});`);
    ctx.memory = { name: 'mem', width: mem.width, addrBits: mem.addrBits };
  }
  if (raw.fsm) {
    const states = Array.from({ length: raw.fsm.states }, (_, i) => `'s${i}'`);
    b.line(`const ctrl = fsm(m, 'ctrl', [${states.join(', ')}], 's0');`);
    ctx.fsm = { name: 'ctrl', states: raw.fsm.states };
  }
  if (child) {
    b.line(`const sub = m.instance(${child.name}, undefined, { name: 'sub' });`);
    child.raw.inputs.forEach((w, i) => b.line(`sub.io.i${i}.set(${fit(b.pick(child.inputs[i % child.inputs.length]!), w)});`));
    child.printed.outputWidths.forEach((w, i) => b.pool.push({ code: `sub.io.o${i}`, width: w }));
  }
  for (const o of raw.ops) OP_READERS[o.kind % OP_READERS.length]!(b, o, ctx);
  // Writes, transitions and register updates read the whole pool (feedback through registers and memory).
  if (raw.memory) {
    const mem = raw.memory;
    // Lane widths that divide the word (byte enables, bit enables, …).
    const lanes = [1, 2, 4, 8, 16, 32].filter((g) => g < mem.width && mem.width % g === 0);
    const mask = mem.lanes % 3 === 0 || !lanes.length ? '' : `, { mask: ${fit(b.pick(mem.mask), mem.width / lanes[mem.lanes % lanes.length]!)} }`;
    b.line(`m.when(${cond(b.pick(mem.we), mem.data)}, () => mem.write(${fit(b.pick(mem.addr), mem.addrBits)}, ${fit(b.pick(mem.data), mem.width)}${mask}));`);
  }
  if (raw.fsm) {
    const n = raw.fsm.states;
    // Per state, one when/elsewhen chain (separate whens could override each other, which the DSL rejects).
    const byState = new Map<number, string[]>();
    for (const e of raw.fsm.edges) {
      const from = e.from % n;
      byState.set(from, [...(byState.get(from) ?? []), `(${cond(b.pick(e.cond), e.to)}, () => ctrl.goto('s${e.to % n}'))`]);
    }
    const handlers = [...byState].map(([s, edges]) => `s${s}: () => m.when${edges.join('.elsewhen')}`);
    if (handlers.length) b.line(`ctrl.on({ ${handlers.join(', ')} });`);
  }
  for (const { raw: r, value } of regs) {
    const next = fit(b.pick(r.next), r.width);
    if (r.style === 0) b.line(`${value.code}.set(${next});`);
    else if (r.style === 1) b.line(`m.when(${cond(b.pick(r.cond), r.next)}, () => ${value.code}.set(${next}));`);
    else b.line(`m.when(${cond(b.pick(r.cond), r.next)}, () => ${value.code}.set(${next})).elsewhen(${cond(b.pick(r.cond2), r.alt)}, () => ${value.code}.set(${fit(b.pick(r.alt), r.width)})).otherwise(() => ${value.code}.set(${value.code}.not()));`);
  }
  const outs = outputValues(raw, b.pool);
  outs.forEach((v, i) => b.line(`io.o${i}.set(${v.code});`));
  const ports = [...raw.inputs.map((w, i) => `i${i}: input(UInt(${w}))`), ...outs.map((v, i) => `o${i}: output(UInt(${v.width}))`)].join(', ');
  return { ports, body: b.lines, outputWidths: outs.map((v) => v.width) };
}

/** Outputs: choices among the values the operations defined (late ones first, so most of the logic is observed). */
function outputValues(raw: RawModule, pool: readonly Value[]): Value[] {
  const defined = pool.slice(raw.inputs.length);
  const from = defined.length ? defined : pool;
  return raw.outputs.map((c, i) => (i === 0 ? from[from.length - 1]! : from[c % from.length]!));
}

/** The source of a design: `const <Name>_child = defineModule(…)` (if any) and `const <Name> = defineModule(…)`. */
export function designSource(raw: RawDesign, name = 'Rand'): string {
  const parts: string[] = [];
  let child: ChildUse | null = null;
  if (raw.child) {
    const printed = moduleBody(raw.child, null);
    child = { name: `${name}_child`, raw: raw.child, printed, inputs: raw.childInputs };
    parts.push(`const ${child.name} = defineModule('${child.name}', () => ({ ${printed.ports} }), (m, io) => {\n${printed.body.join('\n')}\n});`);
  }
  const top = moduleBody(raw, child);
  parts.push(`const ${name} = defineModule('${name}', () => ({ ${top.ports} }), (m, io) => {\n${top.body.join('\n')}\n});`);
  return parts.join('\n\n');
}

const DSL_NAMES = ['defineModule', 'input', 'output', 'UInt', 'lit', 'cat', 'mux', 'fsm'] as const;

/** Evaluates a design's source against the DSL and returns its module definition. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyModule = hdl.ModuleDef<undefined, any>;

export function moduleOfSource(source: string, name = 'Rand'): AnyModule {
  const f = new Function(...DSL_NAMES, `${source}\nreturn ${name};`) as (...args: unknown[]) => AnyModule;
  return f(...DSL_NAMES.map((n) => hdl[n]));
}

export function elaborateRandom(raw: RawDesign, name = 'Rand'): { source: string; design: Design } {
  const source = designSource(raw, name);
  return { source, design: hdl.elaborate(moduleOfSource(source, name), undefined).design };
}

/** A TypeScript file that rebuilds the design (for a failure report). */
export function reproductionFile(source: string, name = 'Rand'): string {
  return [`import { ${DSL_NAMES.join(', ')}, elaborate } from 'rtgpu/hdl';`, '', source, '', `export default ${name};`, `export const design = elaborate(${name}, undefined).design;`, ''].join('\n');
}

/**
 * Many random designs side by side in one top module (`d<j>_<port>` ports), so that one Verilator or
 * Icarus build checks all of them.
 */
export function batchOfRandom(raws: readonly RawDesign[]): { sources: string[]; design: Design } {
  return batchOfSources(raws.map((raw, j) => designSource(raw, `R${j}`)));
}

/** Designs given by their sources (each defining `R<j>`) side by side in one top module, as batchOfRandom. */
export function batchOfSources(sources: string[]): { sources: string[]; design: Design } {
  const defs = sources.map((src, j) => moduleOfSource(src, `R${j}`));
  const specs = defs.map((d) => Object.entries(d.ports(undefined) as Record<string, hdl.PortSpec>));
  const Batch = hdl.defineModule(
    'RandBatch',
    () => Object.fromEntries(specs.flatMap((ports, j) => ports.map(([name, spec]) => [`d${j}_${name}`, spec] as const))),
    (m, io) => {
      const ports = io as Record<string, hdl.UIntValue>;
      defs.forEach((def, j) => {
        const inst = m.instance(def, undefined, { name: `d${j}` });
        const child = inst.io as Record<string, hdl.UIntValue>;
        for (const [name, spec] of specs[j]!) {
          if (spec.dir === 'input') child[name]!.set(ports[`d${j}_${name}`]!);
          else ports[`d${j}_${name}`]!.set(child[name]!);
        }
      });
    },
  );
  return { sources, design: hdl.elaborate(Batch, undefined).design };
}
