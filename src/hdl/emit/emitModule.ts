// Prints one netlist module as readable SystemVerilog: named nets, inlined single-use expressions, if/case processes.
import { basename } from 'node:path';
import type { Cell, Design, EnumInfo, Instance, Memory, ModuleIR, Net, NetId, Reg, SourceLoc } from '../ir/netlist.ts';
import { cellInputs, edgeOf, moduleClocks, netReaderCounts, propertyNets } from '../ir/netlist.ts';
import { IdentifierMap } from './identifiers.ts';
import { hexFileName, hexText } from './memoryImage.ts';
import { bitOf, ffEvent, ffGroupKey, instanceLines, literal, memoryIndexName, memoryLines, portLineNumbers, portLines, range, resetTest, sliceOf, where, wideXorReductionOf, writeMaskOf, writtenBits, zeroExtendedFrom, type NetNames, propertyLines, unusedClocks } from './svFragments.ts';
import { emittedPowerOn, type PowerOnOptions } from '../ir/powerOn.ts';
import { simplifyNetlist } from '../ir/simplify.ts';
import { nameSharedNets } from './sharedNetNames.ts';
import { BitUsage } from './bitUsage.ts';
import { asOperand, ATOM, atom, cellText, type SvText } from './expressionText.ts';
import { buildProcess, DecisionTrees, layerReads, simplify, toCase, type CaseTest, type Layer, type ProcessEntry, type Stmt, type Term, type Tree } from './statements.ts';
import { enumIdentifiers, enumTypedef, type EnumNames } from './enums.ts';

export interface EmittedModule {
  readonly text: string;
  /** Net name -> 1-based line where it is declared or assigned (an inlined net: the line it is inlined into). */
  readonly lines: Record<string, number>;
  readonly hexFiles: { path: string; text: string }[];
  /** Net, memory and instance name -> its SystemVerilog identifier (reserved words are escaped). */
  readonly identifiers: Record<string, string>;
}

/** Longest expression text folded into its single user; longer ones keep a named wire. */
const INLINE_LIMIT = 72;


export function emitModule(design: Design, mod: ModuleIR, powerOn: PowerOnOptions = {}): EmittedModule {
  return new ModuleEmitter(design, readableNetlist(mod), powerOn, mod.nets).emit();
}

/**
 * The module with constants folded, identities applied and repeated subexpressions computed once (exact
 * rewrites, ir/simplify.ts). Every net the TypeScript names is kept and read by its name; a made-up net
 * several places read is named after its operands and operator (sharedNetNames.ts).
 */
function readableNetlist(mod: ModuleIR): ModuleIR {
  return nameSharedNets(simplifyNetlist(mod, { readable: true }));
}

type Branch = Extract<Stmt, { k: 'if' }>;

/** A register printed in an always_ff: its next value as layers (a plain `d` is one leaf), holding where they give `q`. */
interface RegUpdate {
  readonly reg: Reg;
  readonly layers: readonly Layer[];
}

class ModuleEmitter {
  private readonly ids: IdentifierMap;
  private readonly consts = new Map<NetId, bigint>();
  private readonly driver = new Map<NetId, Cell>();
  /** How many cells, registers, memory ports and instances read each net. */
  private readonly readers: number[];
  private readonly trees: DecisionTrees;
  private readonly out: string[] = [];
  private readonly lineOf = new Map<NetId, number>();
  private readonly extraLines: Record<string, number> = {};
  private readonly enums: EnumNames;
  /** Nets printed as their expression inside their one user. */
  private readonly inlined = new Map<NetId, SvText>();
  /** For each inlined net, the net whose line shows it (for `lines`). */
  private readonly host = new Map<NetId, NetId>();
  /** Nets that appear by name: declared and defined once. */
  private readonly live = new Set<NetId>();
  private readonly refs: number[];
  /** Operands printed under a select (`x[3:0]`), which SV allows only on a name. */
  private readonly needsName = new Set<NetId>();
  private readonly enumTyped = new Set<NetId>();
  private readonly usage: BitUsage;
  private readonly names: NetNames;

  constructor(
    private readonly design: Design,
    private readonly mod: ModuleIR,
    private readonly powerOn: PowerOnOptions,
    /** The nets by the names the design gives them: the keys of `lines` and `identifiers` (a renamed shared net prints its new name). */
    private readonly designNets: readonly Net[],
  ) {
    this.ids = new IdentifierMap(moduleClocks(mod).map((c) => c.name));
    for (const p of mod.ports) this.name(p);
    this.refs = mod.nets.map(() => 0);
    for (const c of mod.cells) {
      this.driver.set(c.out, c);
      // A named net keeps its name even when constant: only unnamed constants print as literals.
      if (c.op === 'const' && this.net(c.out).synthesized) this.consts.set(c.out, c.value);
      if (c.op === 'slice' || c.op === 'sext' || (c.op === 'redxor' && mod.nets[c.a]!.width > 64)) this.needsName.add(c.a);
    }
    this.names = { nets: mod.nets, consts: this.consts, name: (id) => this.name(id), value: (id) => this.text(id).s, flag: (id) => operandOf(this.text(id)), zeroExtended: (id) => zeroExtendedFrom(this.driver, id) };
    this.readers = netReaderCounts(mod, (mask) => writeMaskOf(this.names, mask));
    // A reset is printed by name (an asynchronous one in the event control, where only a name may stand).
    for (const r of mod.regs) if (r.reset) this.needsName.add(r.reset.net);
    for (const m of mod.memories) {
      for (const p of m.writePorts) {
        this.needsName.add(p.addr);
        if (p.mask !== undefined) [writeMaskOf(this.names, p.mask), p.data].forEach((x) => this.needsName.add(x));
      }
      for (const p of m.readPorts) this.needsName.add(p.addr);
    }
    this.trees = new DecisionTrees(mod, this.readers);
    this.enums = enumIdentifiers(this.ids);
    this.usage = new BitUsage(mod.nets);
  }

  private net(id: NetId): Net {
    return this.mod.nets[id]!;
  }

  private name(id: NetId): string {
    return this.ids.named(this.designNets[id]!.name, this.net(id).name);
  }

  // ---------------------------------------------------------------- structure

  /** Registers whose next value is a decision tree only they read: printed as if/case inside the always_ff. */
  private regUpdates(absorbed: Set<NetId>): RegUpdate[] {
    return this.mod.regs.map((reg) => {
      const d = this.net(reg.d);
      const own = this.trees.isBranch(reg.d) && !!d.synthesized && d.kind === 'node' && this.readers[reg.d] === 1;
      if (own) absorbed.add(reg.d);
      const tree: Tree = own ? this.trees.tree(reg.d) : { k: 'leaf', net: reg.d, loc: reg.loc };
      return { reg, layers: this.trees.layers(tree, reg.q, absorbed) };
    });
  }

  /** always_comb targets: the branch muxes not folded into a parent, a register or another target's layers. */
  private combEntries(absorbed: Set<NetId>): ProcessEntry[] {
    const roots = this.mod.cells.filter((c) => c.op === 'mux' && c.branch && !this.trees.interior(c.out) && !absorbed.has(c.out)).map((c) => c.out);
    const entries = roots.map((r): ProcessEntry => ({ target: r, layers: this.trees.layers(this.trees.tree(r), undefined, absorbed) }));
    return entries.filter((e) => !absorbed.has(e.target));
  }

  /**
   * always_comb blocks: targets testing the same first condition share a block, but only targets at the same
   * depth of the target-to-target dependency graph, so no block reads what another block of its own reads from.
   */
  private combBlocks(entries: readonly ProcessEntry[]): ProcessEntry[][] {
    const isRoot = new Set(entries.map((e) => e.target));
    const readsOf = new Map(entries.map((e) => [e.target, layerReads(e.layers)] as const));
    const level = new Map<NetId, number>();
    const instanceInputs = new Map<NetId, NetId[]>();
    for (const inst of this.mod.instances) for (const o of Object.values(inst.outputs)) instanceInputs.set(o, Object.values(inst.inputs));
    const asyncRead = new Map<NetId, NetId>();
    for (const m of this.mod.memories) for (const p of m.readPorts) if (p.kind === 'async') asyncRead.set(p.data, p.addr);
    const deps = (n: NetId): NetId[] => {
      const t = readsOf.get(n);
      if (t) return t;
      const c = this.driver.get(n);
      if (c) return cellInputs(c);
      return instanceInputs.get(n) ?? (asyncRead.has(n) ? [asyncRead.get(n)!] : []);
    };
    // Iterative post-order walk (deep decision chains would overflow the JS stack). The netlist has no
    // combinational loop, but `deps` over-approximates an instance (every output reads every input), so a
    // registered feedback through a child can look like one: an edge back to a net on the stack is dropped.
    const onStack = new Set<NetId>();
    const levelOf = (start: NetId): number => {
      const stack: NetId[] = [start];
      while (stack.length) {
        const n = stack[stack.length - 1]!;
        if (level.has(n)) {
          stack.pop();
          continue;
        }
        const pending = onStack.has(n) ? [] : deps(n).filter((d) => !level.has(d) && !onStack.has(d));
        onStack.add(n);
        if (pending.length) {
          stack.push(...pending);
          continue;
        }
        level.set(n, Math.max(0, ...deps(n).filter((d) => level.has(d)).map((d) => level.get(d)! + (isRoot.has(d) ? 1 : 0))));
        onStack.delete(n);
        stack.pop();
      }
      return level.get(start)!;
    };
    const blocks = new Map<string, ProcessEntry[]>();
    for (const e of entries) {
      const first = e.layers.find((l) => l.tree.k === 'mux')!.tree as Extract<Tree, { k: 'mux' }>;
      const key = `${levelOf(e.target)}:${first.sel}`;
      blocks.set(key, [...(blocks.get(key) ?? []), e]);
    }
    return [...blocks.values()];
  }

  /**
   * `subject == K` (either order), or an `or` of such over one subject, on a net no name of the user's marks;
   * or, named or not, an enum-typed subject compared with one of its members (`fsm.is('run')`), so that a
   * switch on a state prints as `case (state)` wherever the comparison is also read by name.
   */
  private caseTest = (cond: NetId): CaseTest | undefined => {
    const c = this.driver.get(cond);
    if (!c) return undefined;
    if (c.op === 'eq') {
      const [k, s] = this.consts.has(c.b) ? [c.b, c.a] : [c.a, c.b];
      if (!this.consts.has(k) || this.consts.has(s)) return undefined;
      const value = this.consts.get(k)!;
      const member = !!this.net(s).enumType?.members.some((m) => BigInt(m.value) === value);
      if (!this.net(cond).synthesized && !member) return undefined;
      return { subject: s, values: [value] };
    }
    if (!this.net(cond).synthesized) return undefined;
    if (c.op === 'or') {
      const a = this.caseTest(c.a);
      const b = this.caseTest(c.b);
      if (a && b && a.subject === b.subject) return { subject: a.subject, values: [...a.values, ...b.values] };
    }
    return undefined;
  };

  // ---------------------------------------------------------------- references and inlining

  /** Counts a by-name or inlined use of `n` and makes it (and what defines it) part of the output. */
  private use(n: NetId, into?: NetId): void {
    this.refs[n]!++;
    if (into !== undefined && !this.host.has(n)) this.host.set(n, into);
    this.define(n);
  }

  private define(n: NetId): void {
    if (this.live.has(n)) return;
    this.live.add(n);
    const c = this.driver.get(n);
    if (!c || this.consts.has(n) || this.combRoot.has(n)) return;
    if (c.op === 'slice') this.usage.read(c.a, c.lo, c.lo + this.net(n).width - 1);
    else if (c.op === 'sext') this.usage.read(c.a, this.net(c.a).width - 1, this.net(c.a).width - 1);
    for (const i of cellInputs(c)) {
      if (c.op !== 'slice') this.usage.readAll(i);
      this.use(i, n);
    }
  }

  /** `comb`: statements of an always_comb, whose reads must not select bits (see `SvText.select`). */
  private useStatements(stmts: readonly Stmt[], host: NetId, comb: boolean): void {
    const read = (n: NetId, into: NetId) => {
      this.usage.readAll(n);
      this.use(n, into);
      if (comb) this.combRead.add(n);
    };
    for (const s of stmts) {
      if (s.k === 'assign') read(s.value, s.target);
      else if (s.k === 'if') {
        for (const t of s.cond) read(t.net, host);
        this.useStatements(s.then, host, comb);
        this.useStatements(s.else, host, comb);
      } else {
        read(s.subject, host);
        for (const item of s.items) this.useStatements(item.body, host, comb);
        this.useStatements(s.otherwise, host, comb);
      }
    }
  }

  private readonly combRead = new Set<NetId>();

  private combRoot = new Set<NetId>();

  /** Decide, in dependency order, which nets print as their expression inside their user. */
  private decideInlining(): void {
    const order: NetId[] = [];
    const seen = new Set<NetId>();
    for (const start of this.mod.cells.map((c) => c.out)) {
      if (!this.live.has(start) || seen.has(start)) continue;
      const stack: [NetId, boolean][] = [[start, false]];
      while (stack.length) {
        const [n, expanded] = stack.pop()!;
        if (expanded) {
          order.push(n);
          continue;
        }
        if (seen.has(n)) continue;
        seen.add(n);
        stack.push([n, true]);
        const c = this.driver.get(n);
        if (c && !this.consts.has(n) && !this.combRoot.has(n)) for (const i of cellInputs(c)) if (!seen.has(i) && this.driver.has(i)) stack.push([i, false]);
      }
    }
    this.defOrder = order.filter((n) => !this.consts.has(n) && !this.combRoot.has(n));
    for (const n of this.defOrder) {
      const net = this.net(n);
      const text = this.cellText(this.driver.get(n)!);
      const inline =
        net.synthesized && net.kind === 'node' && this.refs[n] === 1 && !this.needsName.has(n) && text.s.length <= INLINE_LIMIT && !(text.select && this.combRead.has(n));
      if (inline) this.inlined.set(n, text);
      else this.defText.set(n, text);
    }
  }

  private defOrder: NetId[] = [];
  private readonly defText = new Map<NetId, SvText>();

  // ---------------------------------------------------------------- expression text

  /** A net as an operand: a literal (an enum member when `asEnum` names its type), its expression, or its name. */
  private text(id: NetId, asEnum?: EnumInfo): SvText {
    const v = this.consts.get(id);
    if (v !== undefined) {
      const member = asEnum && this.enums.member(asEnum, v);
      return atom(member ?? literal(this.net(id).width, v));
    }
    const inlined = this.inlined.get(id);
    return inlined ? asOperand(inlined) : atom(this.name(id));
  }

  private cellText(c: Cell): SvText {
    if (c.op === 'const') return atom(this.constant(c.out, c.value));
    const ins = cellInputs(c);
    const out = this.net(c.out);
    const enumOf = (c.op === 'eq' || c.op === 'ne' ? this.net(c.a).enumType ?? this.net(c.b).enumType : out.enumType) ?? undefined;
    const args = ins.map((i, k) => this.text(i, c.op === 'mux' && k === 0 ? undefined : enumOf));
    const aw = 'a' in c ? this.net(c.a).width : 0;
    return cellText(c, {
      args,
      outWidth: out.width,
      aWidth: aw,
      signBit: c.op === 'sext' ? bitOf(this.names, c.a, aw - 1) : undefined,
      selected: c.op === 'slice' ? sliceOf(this.names, c.a, c.lo + out.width - 1, c.lo) : undefined,
      chunkedXor: c.op === 'redxor' ? wideXorReductionOf(this.names, c.a) : undefined,
    });
  }

  // ---------------------------------------------------------------- output

  private line(s: string, net?: NetId): void {
    this.out.push(s);
    if (net !== undefined && !this.lineOf.has(net)) this.lineOf.set(net, this.out.length);
  }

  emit(): EmittedModule {
    const m = this.mod;
    // Structure: register updates, always_comb targets and their blocks, case statements.
    const absorbed = new Set<NetId>();
    const regs = this.regUpdates(absorbed);
    const comb = this.combEntries(absorbed);
    this.combRoot = new Set(comb.map((e) => e.target));
    const blocks = this.combBlocks(comb).map((entries) => ({ entries, stmts: simplify(toCase(buildProcess(entries), this.caseTest)) }));
    const ffGroups = this.ffGroups(regs);

    // References from everything printed, then which nets inline.
    for (const p of m.ports) if (this.net(p).kind === 'output') this.define(p);
    for (const n of m.nets) if (!n.synthesized && n.kind !== 'input') this.define(n.id);
    for (const b of blocks) {
      for (const e of b.entries) this.define(e.target);
      this.useStatements(b.stmts, b.entries[0]!.target, true);
    }
    for (const g of ffGroups) {
      for (const r of g.regs) this.define(r.reg.q);
      if (g.reset !== undefined) {
        this.usage.readAll(g.reset.net);
        this.use(g.reset.net, g.regs[0]!.reg.q);
      }
      for (const e of g.enables) {
        if (e.en !== undefined) {
          this.usage.readAll(e.en);
          this.use(e.en, e.regs[0]!.reg.q);
        }
        this.useStatements(e.stmts, e.regs[0]!.reg.q, false);
      }
    }
    for (const mem of m.memories) this.useMemory(mem);
    for (const inst of m.instances) {
      for (const n of Object.values(inst.inputs)) {
        this.usage.readAll(n);
        this.use(n);
      }
      for (const n of Object.values(inst.outputs)) this.define(n);
    }
    for (const p of m.properties ?? []) {
      for (const n of propertyNets(p)) {
        this.usage.readAll(n);
        this.use(n);
      }
    }
    this.decideInlining();
    this.enumTypedNets(regs, comb);

    const header = `// Generated by rtgpu from ${basename(m.loc.file)}:${m.loc.line}. Do not edit.`;
    const ports = portLines(m, (p) => `  ${this.net(p).kind === 'input' ? 'input ' : 'output'} logic ${range(this.net(p).width)}${this.name(p)}`);

    this.emitDeclarations();
    this.emitWires();
    for (const b of blocks) this.emitComb(b.entries, b.stmts);
    this.emitRegisters(ffGroups);
    m.memories.forEach((mem) => this.emitMemory(mem));
    m.instances.forEach((inst) => this.emitInstance(inst));
    for (const l of propertyLines(m, (id) => this.condition(id))) this.line(l);
    const sink = this.usage.unusedSink(
      m.nets.filter((n) => n.kind !== 'output' && !this.consts.has(n.id) && (n.kind === 'input' || (this.live.has(n.id) && !this.inlined.has(n.id)))).map((n) => n.id),
      (id) => this.name(id),
    );
    const unusedSink = [sink, ...unusedClocks(m, this.design)].filter(Boolean).join(', ');
    if (unusedSink) {
      this.line('');
      this.line('  // Bits no logic reads; collected so that lint reports only unintended leftovers.');
      this.line(`  wire _unused_ok = &{1'b0, ${unusedSink}, 1'b0};`);
    }
    // After the body: the enums its text named.
    const typedefs = [...this.enumTypesUsed()].flatMap((e) => enumTypedef(e, this.enums));
    const pre = [header, `module ${m.name} (`, ...ports.map((p, i) => `${p}${i < ports.length - 1 ? ',' : ''}`), ');', ...typedefs, ...(typedefs.length ? [''] : [])];
    const text = [...pre, ...this.out, 'endmodule', ''].join('\n');
    return { text, lines: this.lineTable(pre.length), hexFiles: m.memories.filter((x) => x.init).map((x) => ({ path: hexFileName(m.name, x.name), text: hexText(x) })), identifiers: this.ids.entries() };
  }

  private lineTable(offset: number): Record<string, number> {
    const m = this.mod;
    const lines = portLineNumbers(m);
    for (const [n, l] of this.lineOf) lines[this.designNets[n]!.name] ??= l + offset;
    for (const [name, l] of Object.entries(this.extraLines)) lines[name] ??= l + offset;
    for (const n of this.inlined.keys()) {
      let h: NetId | undefined = n;
      while (h !== undefined && this.inlined.has(h)) h = this.host.get(h);
      const l = h === undefined ? undefined : this.lineOf.get(h);
      if (l !== undefined) lines[this.designNets[n]!.name] ??= l + offset;
    }
    return lines;
  }

  // ---------------------------------------------------------------- declarations and wires

  private emitDeclarations(): void {
    // Variables: registers, always_comb targets, memory read data and instance outputs (defined further down).
    const vars = this.mod.nets.filter(
      (n) => n.kind !== 'input' && n.kind !== 'output' && this.live.has(n.id) && !this.consts.has(n.id) && !this.inlined.has(n.id) && !this.defText.has(n.id),
    );
    // The first flop of a synchronizer: FPGA tools keep it next to the second and out of retiming.
    const synchronizers = new Set(this.mod.regs.filter((r) => r.synchronizer).map((r) => r.q));
    for (const n of vars) this.line(`  ${synchronizers.has(n.id) ? '(* ASYNC_REG = "TRUE" *) ' : ''}${this.typeOf(n)}${this.name(n.id)};${where(n.loc)}`, n.id);
    if (vars.length) this.line('');
  }

  private typeOf(n: Net): string {
    return this.enumTyped.has(n.id) ? `${this.enums.typeName(n.enumType!)} ` : `logic ${range(n.width)}`;
  }

  /** Continuous assignments in dependency order, each declared where it is defined. */
  private emitWires(): void {
    let any = false;
    for (const n of this.defOrder) {
      const t = this.defText.get(n);
      if (!t) continue;
      const net = this.net(n);
      const stmt = net.kind === 'output' ? `assign ${this.name(n)} = ${t.s};` : `wire ${range(net.width)}${this.name(n)} = ${t.s};`;
      this.line(`  ${stmt}${where(net.assignedAt ?? net.loc)}`, n);
      any = true;
    }
    if (any) this.line('');
  }

  // ---------------------------------------------------------------- processes

  private emitComb(entries: readonly ProcessEntry[], stmts: readonly Stmt[]): void {
    this.line(`  always_comb begin${where(this.net(entries[0]!.target).loc)}`, entries[0]!.target);
    this.statements(stmts, '    ', '=');
    this.line('  end');
    this.line('');
  }

  /** A value assigned to `target`: enum members by name. */
  private value(v: NetId, target: NetId): string {
    return this.text(v, this.net(target).enumType).s;
  }

  private statements(stmts: readonly Stmt[], ind: string, op: '=' | '<='): void {
    for (const s of stmts) {
      if (s.k === 'assign') this.line(`${ind}${this.assignment(s, op)}${where(s.loc)}`, s.target);
      else if (s.k === 'if') this.ifChain(s, ind, op);
      else this.caseStatement(s, ind, op);
    }
  }

  private assignment(s: Extract<Stmt, { k: 'assign' }>, op: '=' | '<='): string {
    return `${this.name(s.target)} ${op} ${this.value(s.value, s.target)};`;
  }

  private condition(cond: NetId): string {
    return this.text(cond).s;
  }

  /** A conjunction of terms: `a && !b && (c | d)`. */
  private conjunction(terms: readonly Term[]): string {
    return terms
      .map((t) => {
        const x = this.text(t.net);
        if (t.neg) return `!${x.prec >= ATOM ? x.s : `(${x.s})`}`;
        // Bitwise operators beside && read as a trap even where precedence is right: parenthesized.
        return terms.length === 1 || x.prec >= 8 ? x.s : `(${x.s})`;
      })
      .join(' && ');
  }

  private ifChain(s: Branch, ind: string, op: '=' | '<='): void {
    const arms: { cond: readonly Term[] | undefined; body: Stmt[]; loc: SourceLoc }[] = [];
    let at: Stmt | undefined = s;
    while (at && at.k === 'if' && at.then.length) {
      arms.push({ cond: at.cond, body: at.then, loc: at.loc });
      const rest: Stmt[] = at.else;
      if (rest.length === 1 && rest[0]!.k === 'if' && rest[0]!.then.length) at = rest[0];
      else {
        if (rest.length) arms.push({ cond: undefined, body: rest, loc: at.loc });
        at = undefined;
      }
    }
    const compact = arms.every((a) => a.body.length === 1 && a.body[0]!.k === 'assign');
    arms.forEach((a, i) => {
      const head = a.cond === undefined ? 'else' : `${i ? 'else if' : 'if'} (${this.conjunction(a.cond)})`;
      if (compact) {
        const only = a.body[0] as Extract<Stmt, { k: 'assign' }>;
        this.line(`${ind}${head} ${this.assignment(only, op)}${where(only.loc)}`, only.target);
      } else {
        this.line(`${ind}${i ? 'end ' : ''}${head} begin${where(a.loc)}`);
        this.statements(a.body, `${ind}  `, op);
      }
    });
    if (!compact) this.line(`${ind}end`);
  }

  private caseStatement(s: Extract<Stmt, { k: 'case' }>, ind: string, op: '=' | '<='): void {
    const subject = this.net(s.subject);
    this.line(`${ind}case (${this.text(s.subject).s})${where(s.loc)}`);
    const label = (v: bigint) => this.enums.member(subject.enumType, v) ?? literal(subject.width, v);
    const arm = (head: string, body: readonly Stmt[]) => {
      const only = body.length === 1 ? body[0]! : undefined;
      // One assignment, or one `if` with one assignment and no else, stays on the item's line.
      const guarded = only?.k === 'if' && !only.else.length && only.then.length === 1 && only.then[0]!.k === 'assign' ? only : undefined;
      if (!body.length) this.line(`${ind}  ${head}: ;`);
      else if (only?.k === 'assign') this.line(`${ind}  ${head}: ${this.assignment(only, op)}${where(only.loc)}`, only.target);
      else if (guarded) {
        const a = guarded.then[0] as Extract<Stmt, { k: 'assign' }>;
        this.line(`${ind}  ${head}: if (${this.conjunction(guarded.cond)}) ${this.assignment(a, op)}${where(a.loc)}`, a.target);
      } else {
        this.line(`${ind}  ${head}: begin`);
        this.statements(body, `${ind}    `, op);
        this.line(`${ind}  end`);
      }
    };
    for (const item of s.items) arm(item.values.map(label).join(', '), item.body);
    arm('default', s.otherwise);
    this.line(`${ind}endcase`);
  }

  // ---------------------------------------------------------------- registers

  private ffGroups(regs: readonly RegUpdate[]) {
    const groups = new Map<string, RegUpdate[]>();
    for (const r of regs) {
      const key = ffGroupKey(r.reg);
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    return [...groups.values()].map((group) => {
      const byEnable = new Map<NetId | undefined, RegUpdate[]>();
      for (const r of group) byEnable.set(r.reg.en, [...(byEnable.get(r.reg.en) ?? []), r]);
      const enables = [...byEnable].map(([en, rs]) => ({
        en,
        regs: rs,
        stmts: simplify(toCase(buildProcess(rs.map((r) => ({ target: r.reg.q, layers: r.layers }))), this.caseTest)),
      }));
      const first = group[0]!.reg;
      return { regs: group, edge: edgeOf(first), reset: first.reset, enables };
    });
  }

  private emitRegisters(groups: ReturnType<ModuleEmitter['ffGroups']>): void {
    const regs = this.mod.regs;
    if (regs.length) {
      // Power-on values for simulators only (Icarus is 4-state and would show X until the first reset
      // edge); synthesis skips them, so hardware must not rely on them: state that matters has a reset.
      this.line('`ifndef SYNTHESIS');
      this.line('  initial begin');
      for (const r of regs) this.line(`    ${this.name(r.q)} = ${this.constant(r.q, emittedPowerOn(this.mod, r, this.powerOn))};`);
      this.line('  end');
      this.line('`endif');
    }
    for (const g of groups) {
      this.line('');
      const rst = g.reset === undefined ? '' : this.name(g.reset.net);
      this.line(`  always_ff @(${ffEvent(g.edge, g.reset, rst)}) begin`);
      let ind = '    ';
      if (g.reset !== undefined) {
        this.line(`    if (${resetTest(g.reset, rst)}) begin`);
        for (const r of g.regs) this.line(`      ${this.name(r.reg.q)} <= ${this.constant(r.reg.q, r.reg.reset!.value)};${where(r.reg.loc)}`, r.reg.q);
        this.line('    end else begin');
        ind = '      ';
      }
      for (const e of g.enables) {
        if (e.en === undefined) this.statements(e.stmts, ind, '<=');
        else if (e.stmts.length === 1 && e.stmts[0]!.k === 'assign') {
          const s = e.stmts[0];
          this.line(`${ind}if (${this.condition(e.en)}) ${this.assignment(s, '<=')}${where(s.loc)}`, s.target);
        } else if (e.stmts.length) {
          this.line(`${ind}if (${this.condition(e.en)}) begin`);
          this.statements(e.stmts, `${ind}  `, '<=');
          this.line(`${ind}end`);
        }
      }
      if (g.reset !== undefined) this.line('    end');
      this.line('  end');
    }
  }

  /** A constant for a net: its enum member's name when it has one. */
  private constant(net: NetId, v: bigint): string {
    return this.enums.member(this.net(net).enumType, v) ?? literal(this.net(net).width, v);
  }

  // ---------------------------------------------------------------- enums

  /**
   * Variables declared with their enum type: every value they take is a member or a variable of the same type
   * (Verilator rejects implicit conversions to an enum), and no select reads them. Others stay `logic`.
   */
  private enumTypedNets(regs: readonly RegUpdate[], combEntries: readonly ProcessEntry[]): void {
    const candidates = new Map<NetId, { type: EnumInfo; values: NetId[]; constants: bigint[] }>();
    for (const r of regs) {
      const type = this.net(r.reg.q).enumType;
      if (!type || this.needsName.has(r.reg.q) || !this.live.has(r.reg.q)) continue;
      const constants = [r.reg.init ?? 0n, ...(r.reg.reset ? [r.reg.reset.value] : [])];
      candidates.set(r.reg.q, { type, values: layerValues(r.layers), constants });
    }
    for (const e of combEntries) {
      const n = this.net(e.target);
      if (!n.enumType || n.kind === 'output' || n.kind === 'input' || this.needsName.has(e.target)) continue;
      candidates.set(e.target, { type: n.enumType, values: layerValues(e.layers), constants: [] });
    }
    let changed = true;
    const ok = new Set(candidates.keys());
    while (changed) {
      changed = false;
      for (const [n, c] of candidates) {
        if (!ok.has(n)) continue;
        const fits =
          c.constants.every((v) => this.enums.member(c.type, v) !== undefined) &&
          c.values.every((v) => v === n || (this.consts.has(v) ? this.enums.member(c.type, this.consts.get(v)!) !== undefined : ok.has(v) && this.net(v).enumType?.name === c.type.name));
        if (!fits) {
          ok.delete(n);
          changed = true;
        }
      }
    }
    for (const n of ok) this.enumTyped.add(n);
  }

  private *enumTypesUsed(): Iterable<EnumInfo> {
    const seen = new Set<string>();
    for (const n of this.enumTyped) {
      const e = this.net(n).enumType!;
      if (!seen.has(e.name)) {
        seen.add(e.name);
        yield e;
      }
    }
    for (const e of this.enums.referenced()) {
      if (!seen.has(e.name)) {
        seen.add(e.name);
        yield e;
      }
    }
  }

  // ---------------------------------------------------------------- memories and instances

  private useMemory(mem: Memory): void {
    for (const p of mem.writePorts) {
      for (const x of [p.addr, p.en, p.data, p.mask === undefined ? undefined : writeMaskOf(this.names, p.mask)]) {
        if (x === undefined) continue;
        if (x === p.data) this.usage.read(x, 0, writtenBits(this.names, mem, p) - 1);
        else this.usage.readAll(x);
        this.use(x);
      }
    }
    for (const p of mem.readPorts) {
      for (const x of [p.addr, p.en]) {
        if (x === undefined) continue;
        this.usage.readAll(x);
        this.use(x, p.data);
      }
      this.define(p.data);
    }
  }

  private emitInstance(inst: Instance): void {
    instanceLines(this.names, this.design, inst, this.ids.get(inst.name)).forEach((l, i) => {
      this.line(l);
      if (i === 1) this.extraLines[inst.name] = this.out.length;
    });
  }


  private emitMemory(mem: Memory): void {
    for (const l of memoryLines(this.names, mem, this.ids.get(mem.name), this.mod.name, memoryIndexName(this.mod))) {
      this.line(l.text, l.data);
      if (l.declaration) this.extraLines[mem.name] = this.out.length;
    }
  }
}

/** An operand of `&&`: parenthesized unless it binds tighter than the logical operators. */
function operandOf(t: SvText): string {
  return t.prec > 4 ? t.s : `(${t.s})`;
}

/** The values layers assign (not their selects, nor the skipped value they keep). */
function layerValues(layers: readonly Layer[]): NetId[] {
  return layers.flatMap((l) => [...treeValues(l.tree)].filter((n) => n !== l.skip));
}

/** The leaf values of a tree (not its selects). */
function treeValues(tree: Tree, out = new Set<NetId>()): Set<NetId> {
  if (tree.k === 'leaf') out.add(tree.net);
  else {
    treeValues(tree.a, out);
    treeValues(tree.b, out);
  }
  return out;
}
