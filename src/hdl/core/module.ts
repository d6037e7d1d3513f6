// The module builder: what a module body calls to declare ports, wires, registers, memories and instances, and to assign under `when`.
import type { SourceLoc } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import { sigOf, type Expr, type Sig } from './ast.ts';
import { buildValue, isHValue, leaves, typeOf, zipLeaves, type DecoupledValue, type HValue, type ValueOf } from './aggregates.ts';
import { popContext, pushContext } from './context.ts';
import { makeMemory, type MemoryHandle, type MemoryOptions, type MemoryOwner } from './memory.ts';
import { ModuleFragment, type ElaboratedModule, type InstanceRecord } from './moduleFragment.ts';
import { checkOptions } from './options.ts';
import type { PortSpecs, PortsValue } from './ports.ts';
import { atLocation, callerLocation } from './sourceLocation.ts';
import { Bool as BoolT, DecoupledType, EnumType, sameType, typeName, type GroundType, type HType } from './types.ts';
import { Bits, Bool, literalExpr, wrap, type Literal } from './values.ts';
import { ClockDomain, ClockSignal, ClockType, makeClockDomain, type ClockDomainSpec } from './clockDomain.ts';
import { packBits } from './packing.ts';
import { checkProperty, checkTemporal, implication, temporalDepth, type PropertyKind, type PropertyOptions, type PropertyRecord, type TemporalOptions } from './properties.ts';
import { SwitchChain, WhenChain } from './whenChain.ts';
import { conditionExpr, guardAnd } from './whenPath.ts';

// ---------------------------------------------------------------- module definitions

export type Params = object | void;

export interface ModuleDef<P extends Params, S extends PortSpecs> {
  readonly name: string;
  readonly ports: (p: P) => S;
  readonly body: (m: ModuleBuilder, io: PortsValue<S>, p: P) => void;
  readonly loc: SourceLoc;
}

/**
 * Define a module: `ports(p)` gives its interface, `body(m, io, p)` its contents. Each distinct
 * parameter object elaborates to its own uniquely named SystemVerilog module.
 */
export function defineModule<P extends Params, S extends PortSpecs>(
  name: string,
  ports: (p: P) => S,
  body: (m: ModuleBuilder, io: PortsValue<S>, p: P) => void,
): ModuleDef<P, S> {
  const loc = callerLocation();
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw hdlError('InvalidArgument', `module name '${name}' is not an identifier`, loc);
  return { name, ports, body, loc };
}

/**
 * How the port types of a module follow its parameters (a FIFO's payload type), for TypeScript only: a type-level
 * function from `params` to `ports`, written `interface FifoPortsOf extends PortsOf { readonly ports:
 * FifoPorts<this['params']> }`. `m.instance` of a `GenericModuleDef` gives each instance the ports of its own parameters.
 */
export interface PortsOf {
  readonly params: unknown;
  readonly ports: PortSpecs;
}

/** The ports `F` gives the parameters `P`. */
export type PortsFor<F extends PortsOf, P> = (F & { readonly params: P })['ports'];

declare const portsOf: unique symbol;

/** A module definition taking parameters `P`, whose port types follow them as `F` says (made by `withGenericPorts`). */
export interface GenericModuleDef<P extends Params, F extends PortsOf> extends ModuleDef<P, PortsFor<F, P>> {
  readonly [portsOf]: F;
}

/**
 * `def`, typed so that an instance's ports follow its parameters as `F` says: a statement to TypeScript (at run
 * time `def` is returned as it is, its `ports(p)` already building the types `F` describes).
 */
export function withGenericPorts<P extends Params, F extends PortsOf>(def: ModuleDef<P, any>): GenericModuleDef<P, F> {
  return def as unknown as GenericModuleDef<P, F>;
}

/** Supplied by the elaboration session: elaborates (or fetches) a child module. */
export interface ModuleElaborator {
  elaborateChild(def: ModuleDef<any, any>, params: unknown, loc: SourceLoc): ElaboratedModule;
}

// ---------------------------------------------------------------- builder

export interface WireOptions<T extends HType> {
  /** Value when no assignment applies (otherwise every path must assign). */
  default?: DefaultOf<T>;
  name?: string;
}

export interface RegOptions<T extends HType> {
  /** Reset value, applied while `rst_n` is low. Omit for a register without reset (powers on at `init`, default 0). */
  reset?: DefaultOf<T>;
  /** Asynchronous reset (`always_ff @(posedge clk or negedge rst_n)`). Default: synchronous. */
  async?: boolean;
  /** Power-on value of a register without reset (FPGA init / simulation start). */
  init?: DefaultOf<T>;
  /** Load enable: the register keeps its value unless this is 1. */
  enable?: Bool;
  name?: string;
  /** The clock domain (default: the one in effect, see `withDomain`). */
  domain?: ClockDomain;
  /**
   * The first flop of a synchronizer: it may sample a signal of another clock domain (the crossing check
   * lets it through) and is emitted with `ASYNC_REG`. The library's synchronizers set it; see `rtgpu/hdl/lib`.
   */
  synchronizer?: boolean;
}

const REG_OPTIONS = ['reset', 'async', 'init', 'enable', 'name', 'domain', 'synchronizer'];

/** Literal forms accepted for a type: numbers for ground types, member names for enums, objects/arrays for aggregates. */
export type DefaultOf<T extends HType> = T extends EnumType<infer N> ? N | Literal | Bits : T extends GroundType ? Literal | Bits : unknown;

export interface InstanceHandle<S extends PortSpecs> {
  readonly io: PortsValue<S>;
  readonly moduleName: string;
}

// Elaboration's handles on a builder, set by the class itself: users can neither make one nor reach its record.
let newBuilder: (fragment: ModuleFragment, elaborator: ModuleElaborator) => ModuleBuilder;
let finishBody: (m: ModuleBuilder, blackBox: boolean) => void;
let fragmentOfBuilder: (m: ModuleBuilder) => ModuleFragment;

/**
 * Runs a module body with a new builder as the current context, then completes it (`blackBox`: its
 * Verilog checks its own handshakes), and returns the record lowering reads.
 */
export function buildModule(moduleName: string, loc: SourceLoc, elaborator: ModuleElaborator, blackBox: boolean, body: (m: ModuleBuilder) => void): ModuleFragment {
  const fragment = new ModuleFragment(moduleName, loc);
  const m = newBuilder(fragment, elaborator);
  pushContext(fragment);
  try {
    body(m);
    finishBody(m, blackBox);
  } finally {
    popContext(fragment);
  }
  return fragment;
}

/** The record a builder fills (for core code that completes a module, such as a black box's reset port). */
export function fragmentOf(m: ModuleBuilder): ModuleFragment {
  return fragmentOfBuilder(m);
}

/**
 * The object a module body receives: what a user calls to declare and connect hardware. What it records
 * is held apart, in the module's `ModuleFragment`, which elaboration lowers to the netlist after the body returns.
 */
export class ModuleBuilder {
  readonly #f: ModuleFragment;
  readonly #elaborator: ModuleElaborator;
  /** What its memories ask of the module. */
  readonly #memoryOwner: MemoryOwner;
  /** The registers `past` made, with how many edges back each one looks. */
  readonly #pastDepth = new Map<Sig, number>();
  /** Per domain, `released` at the edges before (index i: i + 1 edges ago), built as properties need them. */
  readonly #releasedHistory = new Map<ClockDomain, Bool[]>();
  /** Decoupled ports whose valid/ready rules are checked when the body is done. */
  readonly #handshakePorts: { readonly name: string; readonly port: DecoupledValue<HType>; readonly loc: SourceLoc }[] = [];
  readonly #domains: ClockDomain[] = [];
  #defaultDomain: ClockDomain | undefined;
  #implicitDomain: ClockDomain | undefined;

  static {
    newBuilder = (fragment, elaborator) => new ModuleBuilder(fragment, elaborator);
    finishBody = (m, blackBox) => m.#finishBody(blackBox);
    fragmentOfBuilder = (m) => m.#f;
  }

  private constructor(fragment: ModuleFragment, elaborator: ModuleElaborator) {
    this.#f = fragment;
    this.#elaborator = elaborator;
    this.#memoryOwner = { when: fragment.when, memories: fragment.memories, leaf: (kind, t, loc) => fragment.leaf(kind, t, loc), domainFor: (given, loc) => this.#domainFor(given, loc) };
  }

  /** The SystemVerilog name of the module being built. */
  get moduleName(): string {
    return this.#f.moduleName;
  }

  /** Where the module is defined. */
  get loc(): SourceLoc {
    return this.#f.loc;
  }

  // -------- declarations

  /** A combinational signal. Without a default, every path through `when`s must assign it. */
  wire<T extends HType>(type: T, opts: WireOptions<T> = {}): ValueOf<T> {
    const loc = callerLocation();
    checkOptions('wire()', opts, ['default', 'name'], loc);
    return this.#declare(type, 'wire', loc, opts.name, (sig, t) => {
      if (opts.default !== undefined) sig.defaultValue = this.#leafLiteral(opts.default, t, loc, sig);
    });
  }

  /** A register clocked by `clk`. Assign its next value with `set`; reading gives the current value. */
  reg<T extends HType>(type: T, opts: RegOptions<T> = {}): ValueOf<T> {
    const loc = callerLocation();
    checkOptions('reg()', opts, REG_OPTIONS, loc);
    const domain = this.#domainFor(opts.domain, loc);
    if (opts.reset !== undefined) this.#checkResettable(domain, opts.async, loc);
    if (opts.reset !== undefined && opts.init !== undefined) throw hdlError('InvalidArgument', 'a register has either a reset value or an init value, not both', loc);
    const enable = opts.enable?.expr;
    if (enable && enable.width !== 1) throw hdlError('WidthMismatch', `register enable must be 1 bit, got ${enable.width}`, loc);
    return this.#declare(type, 'reg', loc, opts.name, (sig, t) => {
      const reset = opts.reset === undefined ? undefined : this.#constOf(this.#leafLiteral(opts.reset, t, loc, sig), loc);
      const init = opts.init === undefined ? undefined : this.#constOf(this.#leafLiteral(opts.init, t, loc, sig), loc);
      sig.reg = { reset, async: domain.reset ? domain.reset.kind === 'async' : (opts.async ?? false), init, enable, domain, synchronizer: opts.synchronizer === true };
    });
  }

  /** A register that takes `value` every cycle (optionally with reset or enable). */
  regNext<V extends Bits>(value: V, opts: Omit<RegOptions<GroundType>, 'reset' | 'init'> & { reset?: Literal | string } = {}): V['_self'] {
    checkOptions('regNext()', opts, REG_OPTIONS.filter((k) => k !== 'init'), callerLocation());
    const r = this.reg(value.type, opts as RegOptions<GroundType>) as unknown as Bits;
    r.set(value);
    return r as V['_self'];
  }

  /** Declare the module's ports; call once, usually handled by `defineModule`. */
  ports<S extends PortSpecs>(specs: S, loc: SourceLoc = callerLocation()): PortsValue<S> {
    const out: Record<string, unknown> = {};
    const declaresClocks = Object.values(specs).some((s) => s.type instanceof ClockType);
    for (const [name, spec] of Object.entries(specs)) {
      if (spec.type instanceof ClockType) {
        const sig = new ClockSignal(this.#f, 'port', name, loc);
        this.#f.clockPorts.push({ sig, portIndex: this.#f.portSigs.length });
        out[name] = sig;
        continue;
      }
      // A module that declares its clocks names its reset itself; the implicit ones are reserved otherwise.
      if (!declaresClocks && (name === 'clk' || name === 'rst_n')) throw hdlError('InvalidArgument', `port name '${name}' is reserved for the implicit ${name === 'clk' ? 'clock' : 'reset'}; to name the clock and reset yourself, declare the clock as input(Clock) and its domain with m.clockDomain (docs/hdl-guide.md, "Clock domains and resets")`, loc);
      out[name] = buildValue(spec.type as HType, (t, path, flipped) => {
        const isOut = (spec.dir === 'output') !== flipped;
        const full = [name, ...path].join('_');
        return this.#f.leaf(isOut ? 'output' : 'input', t, loc, full, (sig) => this.#f.portSigs.push({ path: full, sig }));
      });
      if (spec.type instanceof DecoupledType && (spec.checkHandshake ?? spec.type.irrevocable)) this.#handshakePorts.push({ name, port: out[name] as DecoupledValue<HType>, loc });
    }
    return out as PortsValue<S>;
  }

  /** A memory of `depth` words of `type`; see MemoryHandle for its ports. */
  memory<T extends GroundType>(type: T, depth: number, opts: MemoryOptions = {}): MemoryHandle<T> {
    const loc = callerLocation();
    checkOptions('memory()', opts, ['init', 'name', 'domain'], loc);
    if (opts.domain !== undefined) this.#domainFor(opts.domain, loc);
    const mem = makeMemory(this.#memoryOwner, type, depth, opts, loc);
    return mem;
  }

  /** Instantiate a submodule. Its inputs must all be connected by this module. */
  instance<P extends Params, F extends PortsOf, Q extends P>(def: GenericModuleDef<P, F>, params: Q, opts?: { name?: string; domain?: ClockDomain }): InstanceHandle<PortsFor<F, Q>>;
  instance<P extends Params, S extends PortSpecs>(def: ModuleDef<P, S>, params: P, opts?: { name?: string; domain?: ClockDomain }): InstanceHandle<S>;
  instance(def: ModuleDef<Params, PortSpecs>, params: Params, opts: { name?: string; domain?: ClockDomain } = {}): InstanceHandle<PortSpecs> {
    const loc = callerLocation();
    checkOptions('instance()', opts, ['name', 'domain'], loc);
    const child = this.#elaborator.elaborateChild(def, params, loc);
    // A child on the implicit clock needs the domain now; one with Clock ports only for the inputs left undriven.
    const domain = opts.domain !== undefined || (child.ir.clocked && child.ir.clocks === undefined) ? this.#domainFor(opts.domain, loc) : this.#domainIfAny();
    const ports = new Map<string, Sig>();
    const clocks = new Map<string, ClockSignal>();
    const rec: InstanceRecord = { nameHint: opts.name, loc, child, ports, clocks, domain };
    const io: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(child.specs)) {
      if (spec.type instanceof ClockType) {
        const sig = new ClockSignal(this.#f, 'childin', name, loc);
        clocks.set(name, sig);
        io[name] = sig;
        continue;
      }
      io[name] = buildValue(spec.type as HType, (t, path, flipped) => {
        const isOut = (spec.dir === 'output') !== flipped;
        const port = [name, ...path].join('_');
        return this.#f.leaf(isOut ? 'childout' : 'childin', t, loc, undefined, (sig) => {
          sig.instance = { name: () => rec.name ?? 'u', port };
          ports.set(port, sig);
        });
      });
    }
    if (domain) this.#checkChildDomain(child, domain, loc);
    this.#f.instances.push(rec);
    return { io: io as PortsValue<PortSpecs>, moduleName: child.ir.name };
  }

  /**
   * Marks signals as intentionally unused: an input a fixed port list requires but this design does not
   * need (a clock too), or an output of a submodule or black box nobody reads. No UnusedInput warning is given for them,
   * and lint stays clean (the emitted SV collects unread bits in a `_unused_ok` wire Verilator accepts).
   */
  unused(...values: (HValue | ClockSignal)[]): void {
    const loc = callerLocation();
    for (const v of values) {
      if (v instanceof ClockSignal) {
        if (v.owner !== this.#f || v.kind !== 'port') throw hdlError('InvalidArgument', `unused(): clock '${v.name}' is not a Clock input of ${this.moduleName}`, loc);
        this.#f.unusedClocks.add(v.name);
        continue;
      }
      for (const leaf of leaves(v)) {
        if (leaf.expr.kind !== 'sig') throw hdlError('InvalidArgument', 'unused() takes signals (ports, wires, registers, submodule outputs), not expressions: an expression no one reads builds nothing', loc);
        if (leaf.expr.sig.owner !== this.#f) throw hdlError('CrossModuleReference', 'unused() of a signal of another module', loc);
        this.#f.unusedSigs.add(leaf.expr.sig);
      }
    }
  }

  // -------- clock domains

  /**
   * A clock domain of this module: `m.clockDomain({ clock: io.clk, reset: io.reset, resetKind: 'sync',
   * resetActive: 'high' })`. Use it with `withDomain`, `useDomain`, or the `domain` option of `reg`.
   */
  clockDomain(spec: ClockDomainSpec): ClockDomain {
    const loc = callerLocation();
    const d = makeClockDomain(this.#f, spec, loc);
    const twin = this.#domains.find((x) => x.name === d.name);
    if (twin) throw hdlError('ClockDomain', `module ${this.moduleName} already has a clock domain named '${d.name}'; give this one a name`, loc, [{ message: 'the other one', loc: twin.loc }]);
    this.#domains.push(d);
    return d;
  }

  /** Registers, memory ports, state machines and instances declared in `body` belong to `domain`. */
  withDomain<R>(domain: ClockDomain, body: () => R): R {
    const loc = callerLocation();
    this.#checkOwnDomain(domain, loc);
    const saved = this.#defaultDomain;
    this.#defaultDomain = domain;
    try {
      return body();
    } finally {
      this.#defaultDomain = saved;
    }
  }

  /** From here to the end of the body (outside `withDomain`), everything clocked belongs to `domain`. */
  useDomain(domain: ClockDomain): void {
    this.#checkOwnDomain(domain, callerLocation());
    this.#defaultDomain = domain;
  }

  /**
   * The domain in effect: the one of `withDomain`/`useDomain`; else, in a module with one Clock port,
   * the rising edge of that clock without reset; in a module without Clock ports, the implicit `clk`/`rst_n`.
   */
  currentDomain(loc: SourceLoc = callerLocation()): ClockDomain {
    if (this.#defaultDomain) return this.#defaultDomain;
    if (this.#f.clockPorts.length === 0) return (this.#implicitDomain ??= new ClockDomain(this.#f, 'clk', undefined, 'rising', undefined, this.#f.loc));
    if (this.#f.clockPorts.length === 1) {
      const clock = this.#f.clockPorts[0]!.sig;
      return (this.#implicitDomain ??= new ClockDomain(this.#f, clock.name, clock, 'rising', undefined, clock.loc));
    }
    throw hdlError('ClockDomain', `module ${this.moduleName} has clocks ${this.#f.clockPorts.map((c) => `'${c.sig.name}'`).join(', ')}: say which domain this belongs to (m.withDomain, m.useDomain, or { domain })`, loc);
  }

  /**
   * A declared false path: `value` as a wire the clock-domain crossing check does not look through.
   * For a signal that is stable whenever another domain samples it (a configuration register written
   * before use, a FIFO word protected by its pointers); say why in `reason`.
   */
  crossDomain<V extends Bits>(value: V, reason: string): V['_self'] {
    const loc = callerLocation();
    if (!(value instanceof Bits)) throw hdlError('InvalidArgument', 'crossDomain() takes a ground value (UInt, SInt, Bool or enum)', loc);
    if (typeof reason !== 'string' || reason.trim() === '') throw hdlError('InvalidArgument', 'crossDomain(value, reason): say why the crossing is safe', loc);
    const w = this.wire(value.type as GroundType, { name: undefined }) as unknown as Bits;
    const sig = sigOf(w.expr);
    this.#f.falsePaths.set(sig, reason);
    w.set(value);
    return w as V['_self'];
  }

  /** The domain in effect, or undefined where there is none (several clocks and none chosen). */
  #domainIfAny(): ClockDomain | undefined {
    return this.#defaultDomain || this.#f.clockPorts.length < 2 ? this.currentDomain() : undefined;
  }

  /** The domain of a clocked declaration: `given`, else the one in effect. */
  #domainFor(given: ClockDomain | undefined, loc: SourceLoc): ClockDomain {
    if (given === undefined) return this.currentDomain(loc);
    this.#checkOwnDomain(given, loc);
    return given;
  }

  #checkOwnDomain(d: ClockDomain, loc: SourceLoc): void {
    if (!(d instanceof ClockDomain)) throw hdlError('InvalidArgument', `expected a clock domain (from m.clockDomain), got ${String(d)}`, loc);
    if (d.owner !== this.#f) throw hdlError('ClockDomain', `clock domain '${d.name}' belongs to module ${d.owner.moduleName}, not ${this.moduleName}; pass clocks through Clock ports`, loc, [{ message: 'domain declared here', loc: d.loc }]);
  }

  #checkResettable(domain: ClockDomain, async: boolean | undefined, loc: SourceLoc): void {
    if (domain.implicit) {
      this.#f.useReset();
      return;
    }
    if (!domain.reset) throw hdlError('ClockDomain', `this register has a reset value, but clock domain '${domain.name}' has no reset; give the domain one (m.clockDomain({ …, reset, resetKind, resetActive })) or use init instead`, loc, [{ message: 'domain declared here', loc: domain.loc }]);
    if (async !== undefined && async !== (domain.reset.kind === 'async')) throw hdlError('ClockDomain', `async: ${async} contradicts clock domain '${domain.name}', whose reset is ${domain.reset.kind === 'async' ? 'asynchronous' : 'synchronous'}; drop the option`, loc, [{ message: 'domain declared here', loc: domain.loc }]);
  }

  /** A child with the implicit clock needs a rising edge; one with the implicit reset needs a reset. */
  #checkChildDomain(child: ElaboratedModule, domain: ClockDomain, loc: SourceLoc): void {
    const implicitClock = child.ir.clocked && child.ir.clocks === undefined;
    if (implicitClock && domain.edge === 'falling') throw hdlError('ClockDomain', `module ${child.ir.name} samples the rising edge of its implicit clock; instantiate it in a rising-edge domain, not '${domain.name}'`, loc, [{ message: 'domain declared here', loc: domain.loc }]);
    if (!child.ir.ports.some((p) => child.ir.nets[p]!.name === 'rst_n' && child.ir.clocks === undefined)) return;
    if (domain.implicit) this.#f.useReset();
    else if (!domain.reset) throw hdlError('ClockDomain', `module ${child.ir.name} has the implicit reset rst_n, but clock domain '${domain.name}' has no reset to drive it`, loc, [{ message: 'domain declared here', loc: domain.loc }]);
  }

  // -------- conditional assignment

  /** Assignments inside `body` apply only while `cond` holds. */
  when(cond: Bits | boolean, body: () => void): WhenChain {
    const c = conditionExpr(cond);
    this.#f.when.under([{ cond: c, pos: true }], body);
    return new WhenChain(this.#f.when, [c]);
  }

  /** Compare a value against alternatives: `m.switch(op).is(0, …).is([1, 2], …).default(…)`. */
  switch<V extends Bits>(subject: V): SwitchChain<V> {
    return new SwitchChain(this.#f.when, subject);
  }

  /**
   * Connect two values of the same shape: each leaf flows from `src` to `dst`, except flipped fields,
   * which flow the other way (so a consumer port connects to a producer port in one call).
   */
  connect(dst: HValue | ClockSignal, src: HValue | ClockSignal): void {
    const loc = callerLocation();
    if (dst instanceof ClockSignal || src instanceof ClockSignal) {
      if (!(dst instanceof ClockSignal && src instanceof ClockSignal)) throw hdlError('ClockDomain', 'connect: a clock connects only to a clock (clocks are not data)', loc);
      (dst.kind === 'childin' ? dst : (src as ClockSignal)).set(dst.kind === 'childin' ? src : dst);
      return;
    }
    const td = typeOf(dst);
    const ts = typeOf(src);
    if (!sameType(td, ts)) throw hdlError('TypeMismatch', `connect: ${typeName(td)} and ${typeName(ts)} differ`, loc);
    zipLeaves(dst, src, (d, s, flipped) => (flipped ? s : d).set(flipped ? d : s));
  }

  // -------- properties

  /**
   * `cond` holds at every edge of the domain's clock (sampled as a register samples), while the `when`
   * it sits in and `enable` hold and the domain's reset is released. Every simulator stops at the first
   * edge where it does not, naming this line and `message`; `rtgpu prove` proves it.
   */
  assert(cond: Bits | boolean, message?: string, opts: PropertyOptions = {}): void {
    this.#property('assert', cond, message, opts, callerLocation());
  }

  /** Like `assert`, for what the design relies on its environment for: the formal flow explores only inputs that keep it; a simulator stops when a testbench breaks it. */
  assume(cond: Bits | boolean, message?: string, opts: PropertyOptions = {}): void {
    this.#property('assume', cond, message, opts, callerLocation());
  }

  /** A cover point: counted at every edge where `cond` holds (coverage reports name it); `rtgpu prove --mode cover` finds a trace to it. */
  cover(cond: Bits | boolean, name?: string, opts: Omit<PropertyOptions, 'name'> = {}): void {
    const loc = callerLocation();
    if (name !== undefined && (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))) throw hdlError('InvalidArgument', `m.cover(): the name must be an identifier, got ${JSON.stringify(name)}`, loc);
    this.#property('cover', cond, undefined, { ...opts, name }, loc);
  }

  /**
   * `value` (a signal, Bundle or Vec) has no X or Z bit at every edge where the `when` it sits in and
   * `enable` hold and the domain's reset is released. Only a four-state simulator (Icarus) can see X: it
   * comes from a register with neither reset nor init read before it is written, a black box's Verilog, or
   * an input a testbench leaves undriven. On the TS simulator, Verilator and in proofs every bit is 0 or
   * 1, so there it always holds (`rtgpu prove` leaves it out).
   */
  assertKnown(value: HValue, message?: string, opts: PropertyOptions = {}): void {
    this.#knownProperty('assert', value, message, opts, callerLocation());
  }

  /** Like `assertKnown`, for a value the environment provides (an input): a simulator stops when a testbench drives X or Z where enabled. */
  assumeKnown(value: HValue, message?: string, opts: PropertyOptions = {}): void {
    this.#knownProperty('assume', value, message, opts, callerLocation());
  }

  /** The value `x` had `n` edges ago (n registers in the domain; 0 before the first edges). */
  past<V extends Bits>(x: V, n = 1, opts: TemporalOptions = {}): V['_self'] {
    const loc = callerLocation();
    const v = checkTemporal('m.past()', x, loc, false);
    if (!Number.isSafeInteger(n) || n < 1) throw hdlError('InvalidArgument', `m.past(x, n): n must be an integer of at least 1, got ${String(n)}`, loc);
    const domain = this.#domainFor(opts.domain, loc);
    const given = v.expr.kind === 'sig' ? v.expr.sig.name : v.expr.kind === 'op' && !v.expr.generatedName ? v.expr.name : undefined;
    const base = given === undefined ? '' : `${given}_`;
    // The past is remembered at every edge, also where `past` is called inside a `when`.
    const from = temporalDepth(v.expr, this.#pastDepth);
    return this.#f.when.outside(() => {
      let out: Bits = v;
      for (let i = 1; i <= n; i++) {
        out = this.regNext(out, { domain, name: `${base}past${i}` }) as Bits;
        this.#pastDepth.set(sigOf(out.expr), from + i);
      }
      return out as V['_self'];
    });
  }

  /** `x` rose at this edge: 1 now, 0 at the edge before. */
  rose(x: Bits, opts: TemporalOptions = {}): Bool {
    const v = checkTemporal('m.rose()', x, callerLocation(), true);
    return v.and(this.past(v, 1, opts).not()) as Bool;
  }

  /** `x` fell at this edge: 0 now, 1 at the edge before. */
  fell(x: Bits, opts: TemporalOptions = {}): Bool {
    const v = checkTemporal('m.fell()', x, callerLocation(), true);
    return v.not().and(this.past(v, 1, opts)) as Bool;
  }

  /** `x` is what it was at the edge before. */
  stable(x: Bits, opts: TemporalOptions = {}): Bool {
    const v = checkTemporal('m.stable()', x, callerLocation(), false);
    return v.eq(this.past(v, 1, opts));
  }

  /** `x` differs from what it was at the edge before. */
  changed(x: Bits, opts: TemporalOptions = {}): Bool {
    const v = checkTemporal('m.changed()', x, callerLocation(), false);
    return v.ne(this.past(v, 1, opts));
  }

  /** `a` implies `b` at the same edge. */
  implies(a: Bits, b: Bits): Bool {
    const loc = callerLocation();
    return implication(checkTemporal('m.implies()', a, loc, true) as Bool, checkTemporal('m.implies()', b, loc, true) as Bool);
  }

  /** When `a` held at the edge before, `b` holds now. */
  impliesNext(a: Bits, b: Bits, opts: TemporalOptions = {}): Bool {
    const loc = callerLocation();
    return implication(this.past(checkTemporal('m.impliesNext()', a, loc, true), 1, opts) as Bool, checkTemporal('m.impliesNext()', b, loc, true) as Bool);
  }

  /** When `a` held, `b` holds at that edge or one of the `n` after it: false at the n-th edge after an `a` with no `b` since. */
  impliesWithin(a: Bits, b: Bits, n: number, opts: TemporalOptions = {}): Bool {
    const loc = callerLocation();
    const av = checkTemporal('m.impliesWithin()', a, loc, true) as Bool;
    const bv = checkTemporal('m.impliesWithin()', b, loc, true) as Bool;
    if (!Number.isSafeInteger(n) || n < 0) throw hdlError('InvalidArgument', `m.impliesWithin(a, b, n): n must be a non-negative integer, got ${String(n)}`, loc);
    if (n === 0) return implication(av, bv);
    let seen: Bool = bv;
    let prev: Bits = bv;
    for (let i = 1; i <= n; i++) {
      prev = this.past(prev, 1, opts);
      seen = seen.or(prev) as Bool;
    }
    return implication(this.past(av, n, opts) as Bool, seen);
  }

  /**
   * The valid/ready rules of an irrevocable handshake as properties: once `valid` is 1 while `ready` is 0,
   * at the next edge `valid` is still 1 and `bits` unchanged (a producer does not take back or change a
   * word it offers). Asserted on a port this module drives, assumed on one it receives. Every
   * `Irrevocable` port, and every `Decoupled` port declared with `{ checkHandshake: true }`, of a module
   * with at most one clock gets them when its body is done, in the domain in effect then (`{
   * checkHandshake: false }` opts an Irrevocable port out); call this for the ports of a module with
   * several clocks, giving the domain. (A plain Decoupled port promises less: an arbiter may offer
   * another requester's word while its output waits.)
   */
  checkHandshake<T extends HType>(port: DecoupledValue<T>, opts: { readonly role?: 'producer' | 'consumer'; readonly domain?: ClockDomain; readonly name?: string } = {}): void {
    this.#handshakeRules(port, opts, callerLocation());
  }

  #handshakeRules<T extends HType>(port: DecoupledValue<T>, opts: { readonly role?: 'producer' | 'consumer'; readonly domain?: ClockDomain; readonly name?: string }, loc: SourceLoc): void {
    const v = port as unknown as { valid?: unknown; ready?: unknown; bits?: unknown };
    if (!(v.valid instanceof Bits) || !(v.ready instanceof Bits)) throw hdlError('InvalidArgument', 'checkHandshake() takes a Decoupled value (valid, ready, bits)', loc);
    const validSig = v.valid.expr.kind === 'sig' ? v.valid.expr.sig : undefined;
    const role = opts.role ?? (validSig?.kind === 'output' || validSig?.kind === 'childin' ? 'producer' : 'consumer');
    const name = opts.name ?? (validSig?.name ?? 'port').replace(/_valid$/, '');
    const domain = this.#domainFor(opts.domain, loc);
    const valid = v.valid as Bool;
    const stalled = (valid.and((v.ready as Bool).not()) as Bool).named(`${name}_stalled`);
    const bits = packBits(v.bits as HValue);
    const kind = role === 'producer' ? 'assert' : 'assume';
    const who = role === 'producer' ? `${this.moduleName} drives` : `${this.moduleName} relies on`;
    const wasStalled = this.past(stalled, 1, { domain }) as Bool;
    this.#property(kind, implication(wasStalled, valid), `${who} '${name}': valid stays 1 until the transfer (valid && !ready at the edge before)`, { name: `${name}_valid_held`, domain }, loc);
    this.#property(kind, implication(wasStalled, this.stable(bits, { domain })), `${who} '${name}': bits stay unchanged while valid waits for ready`, { name: `${name}_bits_stable`, domain }, loc);
    this.#knownProperty(kind, bits, `${who} '${name}': bits have no X or Z bit while valid`, { name: `${name}_bits_known`, enable: valid, domain }, loc);
  }

  /**
   * After the body: the handshake rules of the Decoupled ports (a black box's are its Verilog's
   * business), then the reset history of temporal properties.
   */
  #finishBody(blackBox: boolean): void {
    if (blackBox) return;
    // With several clocks and no domain chosen for the body, the ports' domains are unknown: checkHandshake says them.
    if (this.#f.clockPorts.length < 2 || this.#defaultDomain) {
      // Built after the body, by nobody's line: located at the module's definition, named after the port.
      for (const { name, port, loc } of this.#handshakePorts) atLocation(loc, () => this.#handshakeRules(port, { name }, loc));
    }
    this.#f.properties.forEach((p, i) => (this.#f.properties[i] = atLocation(p.loc, () => this.#acrossNoReset(p))));
  }

  /**
   * A property that looks k edges back is checked only when its domain's reset was released at those k
   * edges too (as SVA's `disable iff` cancels an attempt a reset interrupts): no look across a reset.
   */
  #acrossNoReset(p: PropertyRecord): PropertyRecord {
    const depth = Math.max(temporalDepth(p.cond, this.#pastDepth), p.enable ? temporalDepth(p.enable, this.#pastDepth) : 0);
    const released = depth > 0 ? this.#releasedValue(p.domain) : null;
    if (!released) return p;
    const history = this.#releasedHistory.get(p.domain) ?? [];
    const base = p.domain.implicit ? 'rst_n' : `${p.domain.name}_released`;
    for (let i = history.length; i < depth; i++) {
      const before = i === 0 ? released : history[i - 1]!;
      history.push(this.#f.when.outside(() => this.regNext(before, { domain: p.domain, name: `${base}_past${i + 1}` })) as Bool);
    }
    this.#releasedHistory.set(p.domain, history);
    const held = history.slice(0, depth).reduce((a, b) => a.and(b) as Bool);
    return { ...p, enable: p.enable ? guardAnd(p.enable, held.expr) : held.expr };
  }

  /** 1 while a domain's reset is released, or null when it has none (the implicit domain: `rst_n`, where the module has one). */
  #releasedValue(domain: ClockDomain): Bool | null {
    if (domain.implicit) return this.#f.resetSig ? (wrap({ kind: 'sig', width: 1, sig: this.#f.resetSig, loc: this.#f.resetSig.loc }, BoolT) as Bool) : null;
    if (!domain.reset) return null;
    const asserted = wrap(domain.reset.expr, BoolT) as Bool;
    return domain.reset.activeHigh ? (asserted.not() as Bool) : asserted;
  }

  #property(kind: PropertyKind, cond: Bits | boolean, text: string | undefined, opts: PropertyOptions, loc: SourceLoc): void {
    const checked = checkProperty(kind, cond, text, opts, loc);
    const domain = this.#domainFor(checked.opts.domain, loc);
    const guard = this.#f.when.guard();
    const user = checked.opts.enable?.expr ?? null;
    const enable = guard && user ? guardAnd(guard, user) : (guard ?? user);
    const c = typeof checked.cond === 'boolean' ? literalExpr(checked.cond, BoolT, loc) : checked.cond;
    this.#f.properties.push({ kind, cond: c, enable, known: null, name: checked.opts.name, message: kind === 'cover' ? undefined : text, loc, domain });
  }

  #knownProperty(kind: 'assert' | 'assume', value: HValue, text: string | undefined, opts: PropertyOptions, loc: SourceLoc): void {
    const what = `m.${kind}Known()`;
    if (!isHValue(value)) throw hdlError('InvalidArgument', `${what} takes a hardware value (a signal, Bundle or Vec), got ${typeof value === 'object' && value !== null ? (value as object).constructor?.name ?? 'an object' : typeof value}`, loc);
    this.#property(kind, true, text, opts, loc);
    const i = this.#f.properties.length - 1;
    this.#f.properties[i] = { ...this.#f.properties[i]!, known: packBits(value).expr };
  }

  #declare<T extends HType>(type: T, kind: 'wire' | 'reg', loc: SourceLoc, name: string | undefined, init: (sig: Sig, t: GroundType) => void): ValueOf<T> {
    if (typeof type !== 'object' || type === null || !('kind' in type)) throw hdlError('InvalidArgument', 'not a hardware type', loc);
    return buildValue(type, (t, path) =>
      this.#f.leaf(kind, t, loc, name !== undefined ? [name, ...path].join('_') : undefined, (sig) => {
        if (path.length) sig.pathSuffix = path;
        init(sig, t);
      }),
    );
  }

  /** The literal (or value) for one leaf of a default/reset spec given for the whole aggregate. */
  #leafLiteral(spec: unknown, t: GroundType, loc: SourceLoc, sig: Sig): Expr {
    const v = pickLeaf(spec, sig.pathSuffix);
    if (v instanceof Bits) {
      if (v.width > t.width) throw hdlError('WidthMismatch', `a ${v.width}-bit value cannot initialize a ${t.width}-bit signal`, loc);
      return v.width === t.width ? v.expr : { kind: 'op', op: t.kind === 'sint' ? 'sext' : 'zext', width: t.width, args: [v.expr], loc };
    }
    return literalExpr(v as Literal | string, t, loc);
  }

  #constOf(e: Expr, loc: SourceLoc): bigint {
    if (e.kind !== 'const') throw hdlError('InvalidArgument', 'reset and init values must be constants', loc);
    return e.value;
  }
}

/** For aggregate specs ({a: 1, b: [0, 1]}), the entry at a leaf's path; a scalar spec applies to every leaf. */
function pickLeaf(spec: unknown, path: readonly string[] | undefined): unknown {
  if (path === undefined || spec instanceof Bits || typeof spec !== 'object' || spec === null) return spec;
  let cur: unknown = spec;
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null) return cur;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

