// Lowers one built module to the netlist IR: names nets, folds guarded assignments, runs per-module checks.
import type { Cell, ClockEdge, Instance, Memory, ModuleIR, Net, NetId, NetKind, Property, Reg, SourceLoc } from '../ir/netlist.ts';
import type { Diagnostic, DiagnosticCode } from '../ir/diagnostics.ts';
import { cellFromOperands, cellInputs, edgeOf, moduleClocks, propertyNets } from '../ir/netlist.ts';
import type { ClockDomainRef, Expr, PathStep, Sig } from '../core/ast.ts';
import type { InstanceRecord, ModuleFragment } from '../core/moduleFragment.ts';
import { guardAnd } from '../core/whenPath.ts';
import { inferName } from '../core/naming.ts';
import { NameTable } from './nameTable.ts';

/** The value a signal takes along each path (with where it was assigned): undefined where nothing assigns it. */
type Drive = { k: 'undef' } | { k: 'expr'; e: Expr; loc: SourceLoc } | { k: 'mux'; sel: Expr; a: Drive; b: Drive };

const sameLoc = (a: SourceLoc, b: SourceLoc | undefined) => !!b && a.line === b.line && a.col === b.col && a.file === b.file;

export interface LoweringResult {
  readonly ir: ModuleIR;
  readonly diagnostics: Diagnostic[];
}

/** `external`: a black box, whose outputs are driven inside its Verilog and whose inputs it reads there. */
export function lowerModule(b: ModuleFragment, name: string, params: Record<string, unknown>, childClocked: (inst: string) => boolean, external = false): LoweringResult {
  return new Lowering(b, name, params, childClocked, external).run();
}

class Lowering {
  private readonly nets: Net[] = [];
  private readonly cells: Cell[] = [];
  private readonly names: NameTable;
  private readonly sigNet = new Map<Sig, NetId>();
  private readonly exprNet = new Map<Expr, NetId>();
  private readonly constNet = new Map<string, NetId>();
  /** Structurally equal operator results share one net (op, operands, width, slice offset). */
  private readonly opNet = new Map<string, NetId>();
  private readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly b: ModuleFragment,
    private readonly name: string,
    private readonly params: Record<string, unknown>,
    private readonly childClocked: (moduleName: string) => boolean,
    private readonly external: boolean,
  ) {
    this.names = new NameTable(b.clockPorts.length ? b.clockPorts.map((c) => c.sig.name) : ['clk']);
  }

  run(): LoweringResult {
    const b = this.b;
    const ports: NetId[] = [];
    if (b.resetSig) ports.push(this.declareSig(b.resetSig, 'input', 'rst_n'));
    for (const { path, sig } of b.portSigs) {
      if (this.names.has(path)) this.error('InvalidArgument', `two ports are both named '${path}'`, sig.loc);
      ports.push(this.declareSig(sig, sig.kind === 'input' ? 'input' : 'output', path));
    }
    for (const inst of b.instances) inst.name = this.names.claim(instanceBase(inst.nameHint ?? this.inferred(inst.loc) ?? `u_${inst.child.ir.name}`, inst.child.ir));
    const memNames = b.memories.map((m) => this.names.claim(m.name ?? this.inferred(m.loc) ?? 'mem'));
    for (const sig of b.sigs) if (!this.sigNet.has(sig)) this.declareSig(sig, netKind(sig), this.sigName(sig));
    for (const [sig, reason] of b.falsePaths) {
      const id = this.sigNet.get(sig)!;
      this.nets[id] = { ...this.nets[id]!, falsePath: reason };
    }

    const regs: Reg[] = [];
    for (const sig of b.sigs) {
      if (sig.kind === 'reg') regs.push(this.lowerReg(sig));
      else if (sig.assignable && !this.external) this.lowerComb(sig);
    }
    const memories = b.memories.map((m, i): Memory => ({
      name: memNames[i]!,
      width: m.type.width,
      depth: m.depth,
      init: m.init,
      loc: m.loc,
      readPorts: m.readPorts.map((p) => ({
        kind: p.kind,
        addr: this.expr(p.addr),
        en: p.en ? this.expr(p.en) : undefined,
        data: this.sigNet.get(p.data)!,
        ...(p.kind === 'sync' ? clockOf(p.domain) : {}),
      })),
      writePorts: m.writePorts.map((p) => ({
        addr: this.expr(p.addr),
        data: this.expr(p.data),
        en: this.expr(p.en ?? { kind: 'const', width: 1, value: 1n, loc: p.loc }),
        mask: p.mask ? this.expr(p.mask) : undefined,
        maskGranularity: p.maskGranularity,
        ...clockOf(p.domain),
      })),
    }));
    const instances = b.instances.map((inst): Instance => {
      const inputs: Record<string, NetId> = {};
      const outputs: Record<string, NetId> = {};
      for (const p of inst.child.ir.ports) {
        const net = inst.child.ir.nets[p]!;
        if (net.name === 'rst_n' && !inst.ports.has('rst_n')) {
          inputs.rst_n = this.implicitResetOf(inst.domain!);
          continue;
        }
        const sig = inst.ports.get(net.name)!;
        (net.kind === 'input' ? inputs : outputs)[net.name] = this.sigNet.get(sig)!;
      }
      const clocks = this.instanceClocks(inst);
      return { name: inst.name!, module: inst.child.ir.name, inputs, outputs, loc: inst.loc, ...(clocks ? { clocks } : {}) };
    });
    const properties = this.lowerProperties();
    const clocked =
      b.clockPorts.length > 0 ||
      properties.length > 0 ||
      regs.length > 0 ||
      memories.some((m) => m.writePorts.length > 0 || m.readPorts.some((p) => p.kind === 'sync')) ||
      instances.some((i) => this.childClocked(i.module));
    const clocks = b.clockPorts.length ? b.clockPorts.map((c) => ({ name: c.sig.name, loc: c.sig.loc, portIndex: c.portIndex, ...(c.sig.periodNs !== undefined ? { periodNs: c.sig.periodNs } : {}) })) : undefined;
    const ir: ModuleIR = { name: this.name, loc: b.loc, params: this.params, nets: this.nets, ports, clocked, ...(clocks ? { clocks } : {}), cells: this.cells, regs, memories, instances, ...(properties.length ? { properties } : {}) };
    if (!this.external) this.warnUnusedInputs(ir);
    this.warnMixedResets(regs);
    return { ir, diagnostics: this.diagnostics };
  }

  // ---------------------------------------------------------------- naming

  private inferred(loc: SourceLoc): string | undefined {
    const n = inferName(loc);
    return n ? n.name : undefined;
  }

  private sigName(sig: Sig): string {
    if (sig.name) return sig.name;
    if (sig.instance) return `${sig.instance.name()}_${sig.instance.port}`;
    const base = this.inferred(sig.loc) ?? (sig.kind === 'memread' ? 'rdata' : `_${sig.kind}`);
    return sig.pathSuffix ? [base, ...sig.pathSuffix].join('_') : base;
  }

  private declareSig(sig: Sig, kind: NetKind, name: string): NetId {
    const id = this.newNet(name, sig.width, kind, sig.loc, sig.signed, sig.enumType);
    this.sigNet.set(sig, id);
    return id;
  }

  private newNet(name: string, width: number, kind: NetKind, loc: SourceLoc, signed = false, enumType?: Net['enumType'], synthesized = false): NetId {
    const id = this.nets.length;
    this.nets.push({ id, name: this.names.claim(name), width, kind, signed, loc, ...(enumType ? { enumType } : {}), ...(synthesized ? { synthesized } : {}) });
    return id;
  }

  // ---------------------------------------------------------------- expressions

  /** Lower an expression; `hint` names anonymous operator results after the signal they feed. */
  private expr(e: Expr, parentLoc?: SourceLoc, target?: NetId, hint?: string): NetId {
    // Only an anonymous, not yet lowered result is computed straight into the target; a named one keeps its net.
    const direct = target !== undefined && e.kind === 'op' && !this.exprNet.has(e) && !this.hasOwnName(e);
    const net = this.exprNetOf(e, parentLoc, direct ? target : undefined, hint);
    if (target !== undefined && net !== target) this.cells.push({ op: 'buf', out: target, a: net });
    return target ?? net;
  }

  private exprNetOf(e: Expr, parentLoc: SourceLoc | undefined, target: NetId | undefined, hint: string | undefined): NetId {
    if (e.kind === 'const') {
      const key = `${e.width}:${e.value}`;
      let id = this.constNet.get(key);
      if (id === undefined) {
        id = this.newNet(`_k${e.width}_${e.value.toString(16)}`, e.width, 'node', e.loc, false, undefined, true);
        this.cells.push({ op: 'const', out: id, value: e.value });
        this.constNet.set(key, id);
      }
      return id;
    }
    if (e.kind === 'sig') {
      const id = this.sigNet.get(e.sig);
      if (id === undefined) {
        this.error('CrossModuleReference', `a signal of module ${e.sig.owner.moduleName} is used in module ${this.b.moduleName}; pass values through ports`, e.loc);
        return this.expr({ kind: 'const', width: e.width, value: 0n, loc: e.loc });
      }
      return id;
    }
    const memo = this.exprNet.get(e);
    if (memo !== undefined) return memo;
    const args = e.args.map((a) => this.expr(a, e.loc, undefined, hint));
    const key = `${e.op}:${e.width}:${e.lo ?? 0}:${args.join(',')}`;
    const name = this.opName(e, parentLoc, hint);
    const shared = target === undefined && name.synthesized ? this.opNet.get(key) : undefined;
    if (shared !== undefined) {
      this.exprNet.set(e, shared);
      return shared;
    }
    const out = target ?? this.newNet(name.name, e.width, 'node', e.loc, false, undefined, name.synthesized);
    this.exprNet.set(e, out);
    if (!this.opNet.has(key)) this.opNet.set(key, out);
    this.cells.push(cellFromOperands(e.op, out, args, e.lo));
    return out;
  }

  private hasOwnName(e: Extract<Expr, { kind: 'op' }>): boolean {
    if (e.name) return !e.generatedName;
    const n = inferName(e.loc);
    return !!n && n.exact;
  }

  /** The variable an operator result was assigned to; helper nodes of the same call get a suffix (synthesized). */
  private opName(e: Extract<Expr, { kind: 'op' }>, parentLoc: SourceLoc | undefined, hint: string | undefined): { name: string; synthesized: boolean } {
    if (e.name) return { name: e.name, synthesized: !!e.generatedName };
    const n = inferName(e.loc);
    if (!n) return { name: hint ? `${hint}_${e.op}` : `_${e.op}`, synthesized: true };
    return n.exact && !sameLoc(e.loc, parentLoc) ? { name: n.name, synthesized: false } : { name: `${n.name}_${e.op}`, synthesized: true };
  }

  // ---------------------------------------------------------------- assignments

  /** Insert each assignment into a decision tree keyed by the `when` conditions (last connect wins). */
  private fold(sig: Sig, start: Drive): Drive {
    let d = start;
    const as = sig.assignments;
    as.forEach((x, i) => {
      const later = as.slice(i + 1).find((y) => covers(y.path, x.path));
      if (later) {
        this.error('MultipleDrivers', `'${this.nets[this.sigNet.get(sig)!]!.name}' is assigned here and assigned again under the same condition, so this assignment never takes effect`, x.loc, [
          { message: 'overridden here', loc: later.loc },
        ]);
      }
      d = insert(d, x.path, { k: 'expr', e: x.value, loc: x.loc });
    });
    return d;
  }

  private lowerComb(sig: Sig): void {
    const net = this.sigNet.get(sig)!;
    const name = this.nets[net]!.name;
    const defaultDrive: Drive = sig.defaultValue ? { k: 'expr', e: sig.defaultValue, loc: sig.loc } : { k: 'undef' };
    const d = this.fold(sig, defaultDrive);
    if (d.k === 'undef') {
      const [code, what]: [DiagnosticCode, string] =
        sig.kind === 'output' ? ['UndrivenOutput', `output '${name}' is never assigned`] :
        sig.kind === 'childin' ? ['UnconnectedInput', `input '${sig.instance!.port}' of instance '${sig.instance!.name()}' is never connected`] :
        ['UndrivenWire', `wire '${name}' is never assigned`];
      this.error(code, what, sig.loc);
      this.expr({ kind: 'const', width: sig.width, value: 0n, loc: sig.loc }, undefined, net);
      return;
    }
    if (hasUndef(d)) {
      this.error('Latch', `'${name}' is not assigned on every path; give it a default (m.wire(T, { default })) or assign it in every branch`, sig.loc, sig.assignments.map((a) => ({ message: 'assigned here', loc: a.loc })));
    }
    // An output or wire set once, unconditionally: its assign statement cites the set(), not the declaration.
    if (d.k === 'expr' && d !== defaultDrive) this.nets[net] = { ...this.nets[net]!, assignedAt: d.loc };
    this.drive(d, net, name, sig.width);
  }

  private lowerReg(sig: Sig): Reg {
    const q = this.sigNet.get(sig)!;
    const spec = sig.reg!;
    const name = this.nets[q]!.name;
    const hold: Drive = { k: 'expr', e: { kind: 'sig', width: sig.width, sig, loc: sig.loc }, loc: sig.loc };
    const d = this.fold(sig, hold);
    const dNet = d.k === 'mux' ? this.drive(d, this.newNet(`${name}_next`, sig.width, 'node', sig.loc, sig.signed, undefined, true), name, sig.width) : this.drive(d, undefined, name, sig.width);
    const domain = spec.domain;
    const reset = spec.reset === undefined ? undefined : domain.reset
      ? { kind: domain.reset.kind, net: this.expr(domain.reset.expr), value: spec.reset, ...(domain.reset.activeHigh ? { activeHigh: true } : {}) }
      : { kind: spec.async ? ('async' as const) : ('sync' as const), net: this.sigNet.get(this.b.resetSig!)!, value: spec.reset };
    return {
      q,
      d: dNet,
      en: spec.enable ? this.expr(spec.enable) : undefined,
      reset,
      init: spec.init,
      loc: sig.loc,
      ...clockOf(domain),
      ...(spec.synchronizer ? { synchronizer: true } : {}),
    };
  }

  /** Each property with its enable: the `when` path, the user's enable, and its domain's reset released. */
  private lowerProperties(): Property[] {
    const taken = new Set<string>();
    return this.b.properties.map((p) => {
      const released = this.resetReleased(p.domain);
      const parts = [p.enable, released].filter((e): e is Expr => e !== null);
      const enable = parts.length === 0 ? undefined : parts.length === 1 ? parts[0]! : guardAnd(parts[0]!, parts[1]!);
      const base = p.name ?? `${p.kind}_${p.loc.line}`;
      let name = base;
      for (let k = 2; taken.has(name); k++) name = `${base}_${k}`;
      if (p.name !== undefined && name !== base) this.error('InvalidArgument', `two properties of module ${this.name} are both named '${base}'`, p.loc);
      taken.add(name);
      return {
        kind: p.kind,
        name,
        cond: this.expr(p.cond),
        ...(enable ? { enable: this.expr(enable) } : {}),
        ...(p.known ? { known: this.expr(p.known) } : {}),
        ...(p.message !== undefined ? { message: p.message } : {}),
        loc: p.loc,
        ...clockOf(p.domain),
      };
    });
  }

  /** 1 while a domain's reset is released (null: it has none; the implicit domain's is `rst_n` where the module has one). */
  private resetReleased(domain: ClockDomainRef): Expr | null {
    if (domain.implicit) return this.b.resetSig ? { kind: 'sig', width: 1, sig: this.b.resetSig, loc: this.b.resetSig.loc } : null;
    const r = domain.reset;
    if (!r) return null;
    return r.activeHigh ? { kind: 'op', op: 'not', width: 1, args: [r.expr], loc: r.expr.loc, name: 'reset_released', generatedName: true } : r.expr;
  }

  /** The active-low net driving a child's implicit `rst_n`: the module's own, or its domain's reset (inverted when active high). */
  private implicitResetOf(domain: ClockDomainRef): NetId {
    if (domain.implicit) return this.sigNet.get(this.b.resetSig!)!;
    const r = domain.reset!;
    return this.expr(r.activeHigh ? { kind: 'op', op: 'not', width: 1, args: [r.expr], loc: r.expr.loc, name: `${this.nets[this.expr(r.expr)]!.name}_n`, generatedName: true } : r.expr);
  }

  /** Which of this module's clocks drives each clock input of the child (undefined: `clk` drives `clk`). */
  private instanceClocks(inst: InstanceRecord): Record<string, string> | undefined {
    const child = inst.child.ir;
    if (!child.clocked) return undefined;
    if (child.clocks === undefined) return inst.domain!.clockName === 'clk' ? undefined : { clk: inst.domain!.clockName };
    const out: Record<string, string> = {};
    for (const c of child.clocks) {
      const driver = inst.clocks.get(c.name)?.source?.name ?? inst.domain?.clockName;
      if (driver === undefined) this.error('UnconnectedInput', `clock input '${c.name}' of instance '${inst.name}' is never driven, and module ${this.name} has several clocks: drive it (${inst.name}.io.${c.name}.set(clock)) or give the instance a { domain }`, inst.loc);
      out[c.name] = driver ?? c.name;
    }
    return out;
  }

  /** Lower a drive tree; the root lands on `target` when given. Shared subtrees are lowered once. */
  private drive(d: Drive, target: NetId | undefined, name: string, width: number, memo = new Map<Drive, NetId>()): NetId {
    if (d.k === 'undef') return this.expr({ kind: 'const', width, value: 0n, loc: this.b.loc }, undefined, target);
    if (d.k === 'expr') return this.expr(d.e, undefined, target, name);
    const hit = target === undefined ? memo.get(d) : undefined;
    if (hit !== undefined) return hit;
    const sel = this.expr(d.sel, undefined, undefined, `${name}_sel`);
    const a = this.drive(d.a, undefined, name, width, memo);
    const b = this.drive(d.b, undefined, name, width, memo);
    const out = target ?? this.newNet(`${name}_p`, width, 'node', d.sel.loc, false, undefined, true);
    this.cells.push({ op: 'mux', out, sel, a, b, branch: { aLoc: driveLoc(d.a, d.sel.loc), bLoc: driveLoc(d.b, d.sel.loc) } });
    memo.set(d, out);
    return out;
  }

  // ---------------------------------------------------------------- checks

  private warnUnusedInputs(ir: ModuleIR): void {
    const read = new Set<NetId>();
    for (const c of ir.cells) for (const i of cellInputs(c)) read.add(i);
    for (const r of ir.regs) {
      read.add(r.d);
      if (r.en !== undefined) read.add(r.en);
      if (r.reset) read.add(r.reset.net);
    }
    for (const m of ir.memories) {
      for (const p of m.readPorts) [p.addr, p.en].forEach((x) => x !== undefined && read.add(x));
      for (const p of m.writePorts) [p.addr, p.data, p.en, p.mask].forEach((x) => x !== undefined && read.add(x));
    }
    for (const i of ir.instances) for (const n of Object.values(i.inputs)) read.add(n);
    for (const p of ir.properties ?? []) propertyNets(p).forEach((x) => read.add(x));
    for (const sig of this.b.unusedSigs) read.add(this.sigNet.get(sig)!);
    this.warnUnusedClocks(ir);
    for (const p of ir.ports) {
      const net = ir.nets[p]!;
      if (net.kind === 'input' && !read.has(p)) {
        this.diagnostics.push({ code: 'UnusedInput', severity: 'warning', message: `input '${net.name}' of module ${ir.name} is never read`, loc: net.loc });
      }
    }
  }

  /** A declared clock that clocks nothing (a fixed port list's `clk` of a combinational module): say so, unless marked unused(). */
  private warnUnusedClocks(ir: ModuleIR): void {
    const used = new Set<string>(this.b.unusedClocks);
    for (const r of ir.regs) used.add(edgeOf(r).clock);
    for (const mem of ir.memories) [...mem.writePorts, ...mem.readPorts.filter((p) => p.kind === 'sync')].forEach((p) => used.add(edgeOf(p).clock));
    for (const p of ir.properties ?? []) used.add(edgeOf(p).clock);
    for (const inst of this.b.instances) for (const c of moduleClocks(inst.child.ir)) used.add(inst.clocks.get(c.name)?.source?.name ?? inst.domain?.clockName ?? c.name);
    for (const c of ir.clocks ?? []) {
      if (!used.has(c.name)) this.diagnostics.push({ code: 'UnusedInput', severity: 'warning', message: `clock input '${c.name}' of module ${ir.name} clocks nothing (mark it m.unused(io.${c.name}) if the port list requires it)`, loc: c.loc });
    }
  }

  private warnMixedResets(regs: readonly Reg[]): void {
    const sync = regs.find((r) => r.reset?.kind === 'sync');
    const async = regs.find((r) => r.reset?.kind === 'async' && r.reset.net === sync?.reset?.net);
    if (!sync || !async) return;
    this.diagnostics.push({
      code: 'MixedResetKinds',
      severity: 'warning',
      message: `'${this.nets[async.reset!.net]!.name}' resets '${this.nets[async.q]!.name}' asynchronously and '${this.nets[sync.q]!.name}' synchronously; Verilator -Wall reports SYNCASYNCNET for this`,
      loc: async.loc,
      notes: [{ message: 'synchronous reset here', loc: sync.loc }],
    });
  }

  private error(code: DiagnosticCode, message: string, loc: SourceLoc, notes?: Diagnostic['notes']): void {
    this.diagnostics.push({ code, severity: 'error', message, loc, notes });
  }
}

/** The `clock` field of a register or memory port of a domain: absent for the implicit rising `clk`. */
function clockOf(domain: ClockDomainRef): { clock?: ClockEdge } {
  return domain.implicit ? {} : { clock: { clock: domain.clockName, edge: domain.edge } };
}

function netKind(sig: Sig): NetKind {
  switch (sig.kind) {
    case 'childin':
      return 'wire';
    case 'childout':
      return 'instout';
    default:
      return sig.kind;
  }
}

/** Whether every situation where path `inner` holds is also one where `outer` holds (outer is a prefix). */
function covers(outer: readonly PathStep[], inner: readonly PathStep[]): boolean {
  return outer.length <= inner.length && outer.every((s, i) => s.cond === inner[i]!.cond && s.pos === inner[i]!.pos);
}

/** Replace the part of `tree` selected by `path` with `leaf`. */
function insert(tree: Drive, path: readonly PathStep[], leaf: Drive): Drive {
  if (path.length === 0) return leaf;
  const [step, ...rest] = path as [PathStep, ...PathStep[]];
  if (tree.k === 'mux' && tree.sel === step.cond) {
    return step.pos ? { ...tree, a: insert(tree.a, rest, leaf) } : { ...tree, b: insert(tree.b, rest, leaf) };
  }
  return step.pos ? { k: 'mux', sel: step.cond, a: insert(tree, rest, leaf), b: tree } : { k: 'mux', sel: step.cond, a: tree, b: insert(tree, rest, leaf) };
}

function driveLoc(d: Drive, fallback: SourceLoc): SourceLoc {
  return d.k === 'expr' ? d.loc : fallback;
}

function hasUndef(d: Drive): boolean {
  return d.k === 'undef' || (d.k === 'mux' && (hasUndef(d.a) || hasUndef(d.b)));
}

/**
 * An instance named like a signal, memory or instance declared inside its module hides that declaration
 * for Verilator (VARHIDDEN: the child's names are looked up through the instance's scope): such an
 * instance takes `_inst` after its name.
 */
function instanceBase(name: string, child: ModuleIR): string {
  const inside = new Set([...child.nets.map((n) => n.name), ...child.memories.map((m) => m.name), ...child.instances.map((i) => i.name)]);
  let base = name;
  while (inside.has(base)) base = `${base}_inst`;
  return base;
}
