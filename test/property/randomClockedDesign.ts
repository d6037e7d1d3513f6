// Random eDSL designs with declared clocks for property tests: one to three Clock ports with random periods and
// phases, rising- and falling-edge domains, every reset kind (none, sync, async; active high or low), and
// values crossing clocks only through synchronizer flops or m.crossDomain, so the crossing check accepts them.
// The operations, memory, state machine and child module are those of randomDesign.ts, one value pool per clock.
import fc from 'fast-check';
import * as hdl from '../../src/hdl/index.ts';
import type { Design } from '../../src/hdl/index.ts';
import type { ClockTiming } from '../../src/hdl/sim/index.ts';
import {
  Body,
  OP_READERS,
  big,
  choice,
  cond,
  fit,
  fsmFields,
  memoryFields,
  moduleBody,
  moduleFields,
  opFields,
  registerFields,
  width,
  type ModuleContext,
  type RawFsm,
  type RawMemory,
  type RawModule,
  type RawOp,
  type RawRegister,
  type Value,
} from './randomDesign.ts';

/** A clock's waveform in ps: the period, and choices read modulo what fits (phase from 0 to a period; high 0 = half). */
export interface RawClock {
  readonly periodPs: number;
  readonly phase: number;
  readonly high: number;
}

/** A clock domain: which clock (read modulo the clock count past the first ones), its edge and its reset. */
export interface RawDomain {
  readonly clock: number;
  readonly falling: boolean;
  /** 0: none, 1: synchronous, 2: asynchronous. */
  readonly reset: number;
  readonly activeHigh: boolean;
  /**
   * Where the reset comes from: 0 an input port `r<i>`; 1 logic on two ports (`r<i>` or `r<i>b` asserts
   * it), 3 the same through a named wire; 2 a flop of the same clock sampling `r<i>` (as a reset
   * synchronizer's output is).
   */
  readonly source: number;
}

export interface RawClockedRegister extends RawRegister {
  readonly domain: number;
  /** Without a reset (its domain has none, or `reset` is 0): a power-on value instead of 0. */
  readonly init: boolean;
}

/** A synchronizer: a first flop marked `synchronizer` sampling a value of any clock, then more flops. */
export interface RawSynchronizer {
  readonly domain: number;
  readonly width: number;
  readonly from: number;
  readonly stages: number;
  /** Sampled under a condition of its own clock (a clock enable), else every edge. */
  readonly gated: boolean;
  readonly cond: number;
}

/** A declared false path: a value of another clock taken into this clock's pool by m.crossDomain. */
export interface RawCrossing {
  readonly clock: number;
  readonly from: number;
}

export interface RawClockedMemory extends RawMemory {
  /** The domains of its write port and of its synchronous reads (read modulo the domains of its clock). */
  readonly writeDomain: number;
  readonly readDomain: number;
  readonly clock: number;
  /** `m.memory(…, { domain })` (which then clocks every port), else each port takes the domain in effect. */
  readonly declared: boolean;
}

export interface RawClockedDesign {
  readonly clocks: readonly RawClock[];
  readonly domains: readonly RawDomain[];
  /** Per clock after the first: how many data inputs come before it in the port list. */
  readonly clockAt: readonly number[];
  readonly inputs: readonly number[];
  readonly regs: readonly RawClockedRegister[];
  readonly synchronizers: readonly RawSynchronizer[];
  readonly crossings: readonly RawCrossing[];
  readonly memory: RawClockedMemory | null;
  readonly fsm: (RawFsm & { readonly domain: number }) | null;
  readonly ops: readonly (RawOp & { readonly clock: number })[];
  readonly outputs: readonly number[];
  /** Logic reads the reset inputs too (they are ordinary inputs). */
  readonly readResets: boolean;
  /** A module on the implicit clock, instantiated in a rising-edge domain (with a reset if it has any). */
  readonly child: RawModule | null;
  readonly childDomain: number;
  readonly childInputs: readonly number[];
}

// ------------------------------------------------------------------------------------------------
// Arbitraries

/** Periods from 0.5 to 60 ns in ps; equal and integer-ratio periods often (simultaneous edges). */
const periodPs = fc.oneof(fc.integer({ min: 2000, max: 20000 }), fc.integer({ min: 500, max: 60000 }), fc.constantFrom(10000, 10001, 9999, 5000, 20000, 30000, 3333));
const clockArb: fc.Arbitrary<RawClock> = fc.record({ periodPs, phase: choice, high: fc.oneof(fc.constant(0), choice) });
const domainArb: fc.Arbitrary<RawDomain> = fc.record({ clock: choice, falling: fc.boolean(), reset: fc.nat(2), activeHigh: fc.boolean(), source: fc.nat(3) });

/** A random design with 1 to 3 clocks (mostly 2 or 3) and 3 to 5 domains on them. */
export function randomClockedDesignArb(maxOps = 24): fc.Arbitrary<RawClockedDesign> {
  const base = moduleFields(maxOps);
  return fc.record({
    clocks: fc.oneof({ arbitrary: fc.array(clockArb, { minLength: 2, maxLength: 3 }), weight: 5 }, { arbitrary: fc.array(clockArb, { minLength: 1, maxLength: 1 }), weight: 1 }),
    domains: fc.array(domainArb, { minLength: 3, maxLength: 5 }),
    clockAt: fc.array(choice, { minLength: 2, maxLength: 2 }),
    inputs: base.inputs,
    regs: fc.array(fc.record({ ...registerFields, domain: choice, init: fc.boolean() }), { maxLength: 8 }),
    synchronizers: fc.array(fc.record({ domain: choice, width, from: choice, stages: fc.integer({ min: 1, max: 3 }), gated: fc.boolean(), cond: choice }), { maxLength: 3 }),
    crossings: fc.array(fc.record({ clock: choice, from: choice }), { maxLength: 3 }),
    memory: fc.option(fc.record({ ...memoryFields, writeDomain: choice, readDomain: choice, clock: choice, declared: fc.boolean() }), { freq: 3 }),
    fsm: fc.option(fc.record({ ...fsmFields, domain: choice }), { freq: 3 }),
    ops: fc.array(fc.record({ ...opFields, clock: choice }), { minLength: 1, maxLength: maxOps }),
    outputs: fc.array(choice, { minLength: 1, maxLength: 5 }),
    readResets: fc.boolean(),
    child: fc.option(fc.record(moduleFields(Math.max(1, maxOps >> 1))), { freq: 4 }),
    childDomain: choice,
    childInputs: fc.array(choice, { minLength: 4, maxLength: 4 }),
  });
}

// ------------------------------------------------------------------------------------------------
// Reading raw choices as source

/** A domain as printed: its variable, clock index, edge and reset (the input ports that assert it, and its source). */
interface Domain {
  readonly name: string;
  readonly clock: number;
  readonly falling: boolean;
  readonly reset: { readonly ports: readonly string[]; readonly source: number; readonly kind: 'sync' | 'async'; readonly activeHigh: boolean } | null;
}

/** The clock timings of a design (ns), by clock port name. */
export function clockTimings(raw: RawClockedDesign): Record<string, ClockTiming> {
  const out: Record<string, ClockTiming> = {};
  raw.clocks.forEach((c, k) => {
    const phase = c.phase % (c.periodPs + 1);
    const high = c.high === 0 ? undefined : 1 + (c.high % (c.periodPs - 1));
    out[`c${k}`] = { period: c.periodPs / 1000, phase: phase / 1000, ...(high === undefined ? {} : { high: high / 1000 }) };
  });
  return out;
}

/** The domains of a design: the first ones on clocks 0, 1, 2 in order (every clock has one), the rest anywhere. */
function domainsOf(raw: RawClockedDesign): Domain[] {
  const n = raw.clocks.length;
  return raw.domains.map((d, i) => ({
    name: `d${i}`,
    clock: i < n ? i : d.clock % n,
    falling: d.falling,
    reset: d.reset === 0 ? null : { ports: d.source % 4 === 1 || d.source % 4 === 3 ? [`r${i}`, `r${i}b`] : [`r${i}`], source: d.source % 4, kind: d.reset === 1 ? 'sync' : 'async', activeHigh: d.activeHigh },
  }));
}

/** The reset input ports of a design, each with whether it is active high (what asserting it means for the campaign). */
export function resetPorts(raw: RawClockedDesign): Record<string, boolean> {
  return Object.fromEntries(domainsOf(raw).flatMap((d) => (d.reset ? d.reset.ports.map((p) => [p, d.reset!.activeHigh] as const) : [])));
}

/** The source of a design: `const <Name>_child = defineModule(…)` (if any) and `const <Name> = defineModule(…)`. */
export function clockedDesignSource(raw: RawClockedDesign, name = 'RandC'): string {
  const n = raw.clocks.length;
  const domains = domainsOf(raw);
  const onClock = (k: number) => domains.filter((d) => d.clock === k);
  const domainOf = (c: number) => domains[c % domains.length]!;
  /** A domain of clock k by a choice. */
  const domainOn = (k: number, c: number) => onClock(k)[c % onClock(k).length]!;
  const b = new Body();
  const pools: Value[][] = Array.from({ length: n }, () => []);
  const use = (k: number) => (b.pool = pools[k]!);
  const resetPorts = domains.flatMap((d) => d.reset?.ports ?? []);
  const shared: Value[] = [...raw.inputs.map((w, i) => ({ code: `io.i${i}`, width: w })), ...(raw.readResets ? resetPorts.map((p) => ({ code: `io.${p}`, width: 1 })) : [])];
  for (const p of pools) p.push(...shared);
  for (const d of domains) {
    const r = d.reset;
    let source = r ? `io.${r.ports[0]}` : '';
    // Two ports, either of which asserts the reset; or a flop of the clock sampling the port.
    if (r?.source === 1 || r?.source === 3) source = `io.${r.ports[0]}.${r.activeHigh ? 'or' : 'and'}(io.${r.ports[1]})`;
    if (r?.source === 3) {
      b.line(`const ${d.name}_reset = m.wire(Bool, { name: '${d.name}_reset' });`);
      b.line(`${d.name}_reset.set(${source});`);
      source = `${d.name}_reset`;
    }
    if (r?.source === 2) {
      b.line(`const ${d.name}_sync = m.reg(Bool, { domain: m.clockDomain({ clock: io.c${d.clock}, name: '${d.name}_sync' }) });`);
      b.line(`${d.name}_sync.set(io.${r.ports[0]});`);
      source = `${d.name}_sync`;
    }
    const reset = r ? `, reset: ${source}, resetKind: '${r.kind}', resetActive: '${r.activeHigh ? 'high' : 'low'}'` : '';
    b.line(`const ${d.name} = m.clockDomain({ clock: io.c${d.clock}${d.falling ? ", edge: 'falling'" : ''}${reset}, name: '${d.name}' });`);
  }
  // Registers first (any section may read them), each in its clock's pool.
  const regs = raw.regs.map((r) => {
    const d = domainOf(r.domain);
    use(d.clock);
    const value = big(r.resetValue, r.width);
    const opt = d.reset && r.reset !== 0 ? `reset: ${value}, ` : r.init ? `init: ${value}, ` : '';
    return { raw: r, clock: d.clock, value: b.define(`m.reg(UInt(${r.width}), { ${opt}domain: ${d.name} })`, r.width) };
  });
  const syncs = raw.synchronizers.map((s) => {
    const d = domainOf(s.domain);
    use(d.clock);
    const reset = d.reset ? 'reset: 0, ' : '';
    const stages = Array.from({ length: s.stages }, (_, i) => b.define(`m.reg(UInt(${s.width}), { ${reset}domain: ${d.name}${i === 0 ? ', synchronizer: true' : ''} })`, s.width));
    return { raw: s, clock: d.clock, stages };
  });
  // The memory, the state machine and the child belong to one clock each.
  const mem = raw.memory;
  const memClock = mem ? mem.clock % n : -1;
  if (mem) {
    const words = mem.init.slice(0, 1 << mem.addrBits);
    const opts = [...(words.length ? [`init: [${words.map((x) => big(x, mem.width)).join(', ')}]`] : []), ...(mem.declared ? [`domain: ${domainOn(memClock, mem.writeDomain).name}`] : [])];
    b.line(`const mem = m.memory(UInt(${mem.width}), ${1 << mem.addrBits}${opts.length ? `, { ${opts.join(', ')} }` : ''});`);
  }
  const fsmDomain = raw.fsm ? [domainOf(raw.fsm.domain), ...domains].find((d) => d.reset) : undefined;
  if (raw.fsm && fsmDomain) {
    const states = Array.from({ length: raw.fsm.states }, (_, i) => `'s${i}'`);
    b.line(`const ctrl = fsm(m, 'ctrl', [${states.join(', ')}], 's0', { domain: ${fsmDomain.name} });`);
  }
  const childPrinted = raw.child ? moduleBody(raw.child, null) : null;
  const childResets = raw.child !== null && (raw.child.regs.some((r) => r.reset !== 0) || raw.child.fsm !== null);
  const childCandidates = domains.filter((d) => !d.falling && (!childResets || d.reset));
  const childDomain = raw.child && childCandidates.length ? childCandidates[raw.childDomain % childCandidates.length]! : undefined;
  // Per clock: values of other clocks taken by declared false paths, the child, then the operations.
  const otherValues = (k: number) => [...regs.filter((r) => r.clock !== k).map((r) => r.value), ...pools.filter((_, j) => j < k).flatMap((p) => p.slice(shared.length))];
  for (let k = 0; k < n; k++) {
    use(k);
    // Synchronous reads take the domain in effect (unless the memory names its own).
    b.line(`m.useDomain(${mem && memClock === k ? domainOn(k, mem.readDomain).name : onClock(k)[0]!.name});`);
    for (const c of raw.crossings.filter((x) => x.clock % n === k)) {
      const from = otherValues(k);
      if (from.length) b.define(`m.crossDomain(${from[c.from % from.length]!.code}, 'random campaign: a false path')`, from[c.from % from.length]!.width);
    }
    if (childDomain && childPrinted && childDomain.clock === k) {
      b.line(`const sub = m.instance(${name}_child, undefined, { name: 'sub', domain: ${childDomain.name} });`);
      raw.child!.inputs.forEach((w, i) => b.line(`sub.io.i${i}.set(${fit(b.pick(raw.childInputs[i % raw.childInputs.length]!), w)});`));
      childPrinted.outputWidths.forEach((w, i) => b.pool.push({ code: `sub.io.o${i}`, width: w }));
    }
    const ctx: ModuleContext = {
      memory: mem && memClock === k ? { name: 'mem', width: mem.width, addrBits: mem.addrBits } : null,
      fsm: raw.fsm && fsmDomain && fsmDomain.clock === k ? { name: 'ctrl', states: raw.fsm.states } : null,
    };
    for (const o of raw.ops.filter((x) => x.clock % n === k)) OP_READERS[o.kind % OP_READERS.length]!(b, o, ctx);
  }
  // Writes, transitions and register updates read their clock's whole pool (feedback through state).
  if (mem) {
    use(memClock);
    const lanes = [1, 2, 4, 8, 16, 32].filter((g) => g < mem.width && mem.width % g === 0);
    const mask = mem.lanes % 3 === 0 || !lanes.length ? '' : `, { mask: ${fit(b.pick(mem.mask), mem.width / lanes[mem.lanes % lanes.length]!)} }`;
    b.line(`m.withDomain(${domainOn(memClock, mem.writeDomain).name}, () => m.when(${cond(b.pick(mem.we), mem.data)}, () => mem.write(${fit(b.pick(mem.addr), mem.addrBits)}, ${fit(b.pick(mem.data), mem.width)}${mask})));`);
  }
  if (raw.fsm && fsmDomain) {
    use(fsmDomain.clock);
    const states = raw.fsm.states;
    const byState = new Map<number, string[]>();
    for (const e of raw.fsm.edges) {
      const from = e.from % states;
      byState.set(from, [...(byState.get(from) ?? []), `(${cond(b.pick(e.cond), e.to)}, () => ctrl.goto('s${e.to % states}'))`]);
    }
    const handlers = [...byState].map(([s, edges]) => `s${s}: () => m.when${edges.join('.elsewhen')}`);
    if (handlers.length) b.line(`ctrl.on({ ${handlers.join(', ')} });`);
  }
  for (const { raw: r, clock, value } of regs) {
    use(clock);
    const next = fit(b.pick(r.next), r.width);
    if (r.style === 0) b.line(`${value.code}.set(${next});`);
    else if (r.style === 1) b.line(`m.when(${cond(b.pick(r.cond), r.next)}, () => ${value.code}.set(${next}));`);
    else b.line(`m.when(${cond(b.pick(r.cond), r.next)}, () => ${value.code}.set(${next})).elsewhen(${cond(b.pick(r.cond2), r.alt)}, () => ${value.code}.set(${fit(b.pick(r.alt), r.width)})).otherwise(() => ${value.code}.set(${value.code}.not()));`);
  }
  // A synchronizer's first flop samples any value of any clock; its enable is of its own clock.
  const everything = pools.flatMap((p, j) => (j === 0 ? p : p.slice(shared.length)));
  for (const { raw: s, clock, stages } of syncs) {
    use(clock);
    const sample = `${stages[0]!.code}.set(${fit(everything[s.from % everything.length]!, s.width)})`;
    b.line(s.gated ? `m.when(${cond(b.pick(s.cond), s.from)}, () => ${sample});` : `${sample};`);
    for (let i = 1; i < stages.length; i++) b.line(`${stages[i]!.code}.set(${stages[i - 1]!.code});`);
  }
  // Outputs belong to no clock: any value (the last defined first, so most of the logic is observed).
  const defined = pools.flatMap((p) => p.slice(shared.length));
  const from = defined.length ? defined : shared;
  const order = (v: Value) => Number(/^v(\d+)$/.exec(v.code)?.[1] ?? -1);
  const last = from.reduce((a, v) => (order(v) > order(a) ? v : a));
  const outs = raw.outputs.map((c, i) => (i === 0 ? last : from[c % from.length]!));
  outs.forEach((v, i) => b.line(`io.o${i}.set(${v.code});`));
  // Ports: data inputs with the clocks among them, then the resets, then the outputs.
  const ports = raw.inputs.map((w, i) => `i${i}: input(UInt(${w}))`);
  for (let k = n - 1; k >= 1; k--) ports.splice(raw.clockAt[k - 1]! % (ports.length + 1), 0, `c${k}: input(Clock)`);
  ports.unshift('c0: input(Clock)');
  ports.push(...resetPorts.map((p) => `${p}: input(Bool)`), ...outs.map((v, i) => `o${i}: output(UInt(${v.width}))`));
  const parts: string[] = [];
  if (childDomain && childPrinted) parts.push(`const ${name}_child = defineModule('${name}_child', () => ({ ${childPrinted.ports} }), (m, io) => {\n${childPrinted.body.join('\n')}\n});`);
  parts.push(`const ${name} = defineModule('${name}', () => ({ ${ports.join(', ')} }), (m, io) => {\n${b.lines.join('\n')}\n});`);
  return parts.join('\n\n');
}

const DSL_NAMES = ['defineModule', 'input', 'output', 'UInt', 'Bool', 'Clock', 'lit', 'cat', 'mux', 'fsm'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyModule = hdl.ModuleDef<undefined, any>;

/** Evaluates a design's source against the DSL and returns its module definition. */
export function clockedModuleOfSource(source: string, name = 'RandC'): AnyModule {
  const f = new Function(...DSL_NAMES, `${source}\nreturn ${name};`) as (...args: unknown[]) => AnyModule;
  return f(...DSL_NAMES.map((x) => hdl[x]));
}

export function elaborateClocked(raw: RawClockedDesign, name = 'RandC'): { source: string; design: Design; timings: Record<string, ClockTiming>; resets: Record<string, boolean> } {
  const source = clockedDesignSource(raw, name);
  return { source, design: hdl.elaborate(clockedModuleOfSource(source, name), undefined).design, timings: clockTimings(raw), resets: resetPorts(raw) };
}

/** A TypeScript file that rebuilds the design and sets its clocks (for a failure report). */
export function clockedReproductionFile(source: string, timings: Record<string, ClockTiming>, name = 'RandC'): string {
  return [
    `import { ${DSL_NAMES.join(', ')}, elaborate } from 'rtgpu/hdl';`,
    '',
    source,
    '',
    `export default ${name};`,
    `export const design = elaborate(${name}, undefined).design;`,
    `/** For each clock: sim.setClockTiming(name, timing). */`,
    `export const clockTimings = ${JSON.stringify(timings)};`,
    '',
  ].join('\n');
}

/**
 * Many clocked designs side by side in one top module, sharing its clocks `c0` … (so one Verilator or
 * Icarus build checks all of them, at one set of clock timings); their other ports are `d<j>_<port>`.
 */
export function batchOfClocked(raws: readonly RawClockedDesign[]): { sources: string[]; design: Design; clocks: number; resets: Record<string, boolean> } {
  const sources = raws.map((raw, j) => clockedDesignSource(raw, `R${j}`));
  const defs = sources.map((src, j) => clockedModuleOfSource(src, `R${j}`));
  const specs = defs.map((d) => Object.entries(d.ports(undefined) as Record<string, hdl.PortSpec>));
  const clocks = Math.max(...raws.map((r) => r.clocks.length));
  const Batch = hdl.defineModule(
    'RandClockedBatch',
    () => ({
      ...Object.fromEntries(Array.from({ length: clocks }, (_, k) => [`c${k}`, hdl.input(hdl.Clock)] as const)),
      ...Object.fromEntries(specs.flatMap((ports, j) => ports.filter(([, s]) => !(s.type instanceof hdl.ClockType)).map(([name, spec]) => [`d${j}_${name}`, spec] as const))),
    }),
    (m, io) => {
      const ports = io as unknown as Record<string, hdl.UIntValue & hdl.ClockSignal>;
      m.useDomain(m.clockDomain({ clock: ports.c0! }));
      defs.forEach((def, j) => {
        const inst = m.instance(def, undefined, { name: `d${j}` });
        const child = inst.io as Record<string, hdl.UIntValue & hdl.ClockSignal>;
        for (const [name, spec] of specs[j]!) {
          if (spec.type instanceof hdl.ClockType) child[name]!.set(ports[name]!);
          else if (spec.dir === 'input') child[name]!.set(ports[`d${j}_${name}`]!);
          else ports[`d${j}_${name}`]!.set(child[name]!);
        }
      });
    },
  );
  const resets = Object.fromEntries(raws.flatMap((raw, j) => Object.entries(resetPorts(raw)).map(([p, high]) => [`d${j}_${p}`, high] as const)));
  return { sources, design: hdl.elaborate(Batch, undefined).design, clocks, resets };
}
