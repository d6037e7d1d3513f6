// Generates the simulator's JavaScript: one statement per combinational step, then the clock-edge commit.
import type { Cell, ClockEdge, NetId } from '../../ir/netlist.ts';
import { cellInputs } from '../../ir/netlist.ts';
import { stepInputs, stepOutput, unreachableCell, type Layout, type StepCell } from './layout.ts';
import { clockEdgePlan, clockEdges, edgeBit, observableNets, registerByRegister, resetAssertedJs } from './stepPlan.ts';
import { asyncResets } from './asyncResets.ts';
import { topMask, wordsOf } from './wideOps.ts';

/** Steps per generated function: 200 measured fastest (2,500 ran 10-17x slower once V8 stopped optimizing the large functions). */
const CHUNK = 200;

export interface GeneratedCode {
  /** Body of `function (s, t, m, W, parity)` returning `{ comb, commit }`. */
  readonly source: string;
}

const mask = (w: number) => (w >= 32 ? -1 : 2 ** w - 1);
const narrowConst = (v: bigint, w: number) => String(w === 32 ? Number(BigInt.asIntN(32, v)) : Number(v));

export function generateCode(L: Layout): GeneratedCode {
  const g = new Gen(L);
  return { source: g.program() };
}

class Gen {
  /** Roots computed as locals in the function being generated. */
  private locals = new Set<NetId>();
  constructor(private readonly L: Layout) {}

  private slot(id: NetId) {
    return this.L.slots[this.L.root[id]!]!;
  }
  private w(id: NetId): number {
    return this.L.flat.nets[id]!.width;
  }
  private wide(id: NetId): boolean {
    return this.w(id) > 32;
  }
  private o(id: NetId): number {
    return this.slot(id).off;
  }
  private nm(id: NetId): string {
    return this.L.flat.nets[id]!.name.replace(/\*\//g, '* /');
  }

  /** A narrow operand: an inlined constant or a state read. */
  private r(id: NetId): string {
    const root = this.L.root[id]!;
    const c = this.L.consts.get(root);
    if (c !== undefined) return narrowConst(c, this.w(id));
    return this.locals.has(root) ? `v${root}` : `s[${this.o(id)}]`;
  }

  /** The unsigned value of a (narrow or wide) net, e.g. a shift amount or an address. */
  private unsigned(id: NetId): string {
    if (this.wide(id)) return `W.amount(s, ${this.o(id)}, ${wordsOf(this.w(id))})`;
    return this.w(id) === 32 ? `(${this.r(id)} >>> 0)` : this.r(id);
  }

  program(): string {
    const fast = this.combFunctions('comb', false);
    const full = this.combFunctions('combAll', true);
    // The clock edge in order, split like comb so that V8 optimizes every piece.
    const statements = this.commit();
    const parts: string[] = [];
    for (let i = 0; i < statements.length; i += CHUNK) parts.push(`function commit${parts.length}(ev) {\n${statements.slice(i, i + CHUNK).map((x) => `  ${x}`).join('\n')}\n}`);
    return [
      ...fast,
      ...full,
      ...parts,
      `function commit(ev) {\n${parts.map((_, k) => `  commit${k}(ev);`).join('\n')}\n}`,
      'return { comb, combAll, commit };',
    ].join('\n\n');
  }

  /** Nets that must live in the state array in the fast variant: sources, ports, and everything read outside comb. */
  private observable(): Set<NetId> {
    const L = this.L;
    const keep = observableNets(L);
    const add = (id: NetId | undefined) => id !== undefined && keep.add(L.root[id]!);
    // Wide helpers (and a leading-zero count of a wide net) read their operands from the state array by offset.
    for (const st of L.steps) {
      if (st.kind === 'clz' && this.wide(st.src)) add(st.src);
      if (st.kind === 'sjam' && this.wide(st.amount)) add(st.amount);
      if (st.kind !== 'cell') continue;
      const c = st.cell;
      if (this.isWideCell(c)) for (const i of cellInputs(c)) add(i);
    }
    return keep;
  }

  private combFunctions(name: string, storeAll: boolean): string[] {
    const keep = storeAll ? null : this.observable();
    const resets = asyncResets(this.L);
    const early = resets.filter((x) => x.early).map((x) => `if (${resetAssertedJs(x, this.r(x.net))}) { ${this.setConst(x.reg.q, x.reg.reset!.value)} }`);
    // The fast variant computes only what reaches the ports and the clock edge.
    const steps = storeAll ? this.L.steps : this.L.steps.slice(0, this.L.liveSteps);
    const chunks: (typeof this.L.steps)[] = [];
    for (let i = 0; i < steps.length; i += CHUNK) chunks.push(steps.slice(i, i + CHUNK));
    // A value consumed in a later chunk must be stored.
    const chunkOf = new Map<NetId, number>();
    chunks.forEach((ch, k) => ch.forEach((st) => chunkOf.set(this.stepOut(st), k)));
    if (keep) {
      chunks.forEach((ch, k) =>
        ch.forEach((st) => {
          for (const i of this.stepInputs(st)) {
            const r = this.L.root[i]!;
            const from = chunkOf.get(r);
            if (from !== undefined && from !== k) keep.add(r);
          }
        }),
      );
    }
    const fns = chunks.map((ch, k) => {
      this.locals = new Set();
      const body = ch.map((st) => this.step(st, keep));
      if (k === 0) body.unshift(...early);
      return `function ${name}${k}() {\n${body.map((x) => `  ${x}`).join('\n')}\n}`;
    });
    this.locals = new Set();
    if (chunks.length === 0) fns.push(`function ${name}0() {\n${early.map((x) => `  ${x}`).join('\n')}\n}`);
    const calls = fns.map((_, k) => `${name}${k}();`);
    const late = resets.filter((x) => !x.early);
    if (!late.length) return [...fns, `function ${name}() {\n${calls.map((x) => `  ${x}`).join('\n')}\n}`];
    // Resets computed by the steps: applied after them, and the steps run again for their readers.
    const apply = late.map((x) => `if (${resetAssertedJs(x, this.r(x.net))} && (${this.differs(x.reg.q, x.reg.reset!.value)})) { ${this.setConst(x.reg.q, x.reg.reset!.value)} again = true; }`);
    return [
      ...fns,
      `function ${name}Resets() {\n  let again = false;\n${apply.map((x) => `  ${x}`).join('\n')}\n  return again;\n}`,
      `function ${name}() {\n  do {\n${calls.map((x) => `    ${x}`).join('\n')}\n  } while (${name}Resets());\n}`,
    ];
  }

  private stepOut(st: (typeof this.L.steps)[number]): NetId {
    return stepOutput(this.L, st);
  }

  private stepInputs(st: (typeof this.L.steps)[number]): readonly NetId[] {
    return stepInputs(this.L, st);
  }

  /** One combinational step: a local `vN` for narrow results (stored when observable), helpers for wide ones. */
  private step(st: (typeof this.L.steps)[number], keep: Set<NetId> | null): string {
    const out = this.stepOut(st);
    const store = keep === null || keep.has(out);
    if (st.kind === 'aread') {
      const code = this.asyncRead(st.mem, st.port, store);
      return code;
    }
    if (st.kind === 'clz') {
      // The leading zeros of the field, with a guard bit below it (full: n for a zero field, else n - 1).
      const f = this.wide(st.src) ? `W.extract(s, ${this.o(st.src)}, ${wordsOf(this.w(st.src))}, ${st.lo}, ${st.n})` : st.lo + st.n >= this.w(st.src) ? `(${this.r(st.src)} >>> ${st.lo})` : `((${this.r(st.src)} >>> ${st.lo}) & ${mask(st.n)})`;
      const guard = st.full ? (st.n < 32 ? 1 << (31 - st.n) : 0) : 1 << (32 - st.n);
      this.locals.add(out);
      return `const v${out} = Math.clz32((${f} << ${32 - st.n}) | ${guard | 0});${store ? ` s[${this.o(out)}] = v${out};` : ''} // ${this.nm(st.out)}`;
    }
    if (st.kind === 'sjam') {
      // x >> a with the bits shifted out ORed into bit 0; an amount of w or more leaves only that bit.
      const x = this.r(st.x);
      const a = this.wide(st.amount) ? `W.extract(s, ${this.o(st.amount)}, ${wordsOf(this.w(st.amount))}, 0, ${st.bits})` : st.bits >= this.w(st.amount) ? this.unsigned(st.amount) : `(${this.r(st.amount)} & ${mask(st.bits)})`;
      const w = this.w(st.out);
      this.locals.add(out);
      return `const v${out} = ${a} >= ${w} ? (${x} !== 0 ? 1 : 0) : ((${x} >>> ${a}) | ((${x} & ((1 << ${a}) - 1)) !== 0 ? 1 : 0)) | 0;${store ? ` s[${this.o(out)}] = v${out};` : ''} // ${this.nm(st.out)}`;
    }
    const c = st.cell;
    const cm = ` // ${this.nm(c.out)}`;
    if (this.isWideCell(c) && this.w(c.out) > 32) return this.wideCell(c) + cm;
    const expr = this.isWideCell(c) ? this.wideNarrowExpr(c) : this.narrow(c, this.w(c.out));
    this.locals.add(out);
    return `const v${out} = ${expr};${store ? ` s[${this.o(out)}] = v${out};` : ''}${cm}`;
  }

  private isWideCell(c: Cell): boolean {
    if (this.w(c.out) > 32) return true;
    if ('a' in c && this.wide(c.a as NetId)) return true;
    return 'b' in c && c.op !== 'mux' && c.op !== 'shl' && c.op !== 'lshr' && c.op !== 'ashr' && this.wide((c as { b: NetId }).b);
  }

  /** A test that a state net's value is not `v`. */
  private differs(id: NetId, v: bigint): string {
    const sl = this.slot(id);
    if (!this.wide(id)) return `s[${sl.off}] !== ${narrowConst(v, sl.width)}`;
    return Array.from({ length: sl.words }, (_, k) => `s[${sl.off + k}] !== ${Number(BigInt.asIntN(32, v >> BigInt(32 * k)))}`).join(' || ');
  }

  private setConst(id: NetId, v: bigint): string {
    const sl = this.slot(id);
    if (!this.wide(id)) return `s[${sl.off}] = ${narrowConst(v, sl.width)};`;
    const parts: string[] = [];
    for (let k = 0; k < sl.words; k++) parts.push(`s[${sl.off + k}] = ${Number(BigInt.asIntN(32, v >> BigInt(32 * k)))};`);
    return parts.join(' ');
  }

  private narrow(c: StepCell, w: number): string {
    const M = mask(w);
    const wrap = (e: string) => (w === 32 ? `(${e}) | 0` : `(${e}) & ${M}`);
    switch (c.op) {
      case 'not':
        return w === 32 ? `~${this.r(c.a)}` : `~${this.r(c.a)} & ${M}`;
      case 'and':
        return `${this.r(c.a)} & ${this.r(c.b)}`;
      case 'or':
        return `${this.r(c.a)} | ${this.r(c.b)}`;
      case 'xor':
        return `${this.r(c.a)} ^ ${this.r(c.b)}`;
      case 'add':
        return wrap(`${this.r(c.a)} + ${this.r(c.b)}`);
      case 'sub':
        return wrap(`${this.r(c.a)} - ${this.r(c.b)}`);
      case 'mul':
        return w === 32 ? `Math.imul(${this.r(c.a)}, ${this.r(c.b)})` : `Math.imul(${this.r(c.a)}, ${this.r(c.b)}) & ${M}`;
      case 'eq':
        return `${this.r(c.a)} === ${this.r(c.b)} ? 1 : 0`;
      case 'ne':
        return `${this.r(c.a)} !== ${this.r(c.b)} ? 1 : 0`;
      case 'ult':
      case 'ule': {
        const op = c.op === 'ult' ? '<' : '<=';
        return this.w(c.a) === 32 ? `(${this.r(c.a)} >>> 0) ${op} (${this.r(c.b)} >>> 0) ? 1 : 0` : `${this.r(c.a)} ${op} ${this.r(c.b)} ? 1 : 0`;
      }
      case 'slt':
      case 'sle': {
        const op = c.op === 'slt' ? '<' : '<=';
        const k = 32 - this.w(c.a);
        return k === 0 ? `${this.r(c.a)} ${op} ${this.r(c.b)} ? 1 : 0` : `(${this.r(c.a)} << ${k}) ${op} (${this.r(c.b)} << ${k}) ? 1 : 0`;
      }
      case 'redand':
        return `${this.r(c.a)} === ${mask(this.w(c.a))} ? 1 : 0`;
      case 'redor':
        return `${this.r(c.a)} !== 0 ? 1 : 0`;
      case 'redxor':
        return `parity(${this.r(c.a)})`;
      case 'mux':
        return `${this.r(c.sel)} ? ${this.r(c.a)} : ${this.r(c.b)}`;
      case 'concat': {
        let pos = w;
        const terms = c.parts.flatMap((p) => {
          pos -= this.w(p);
          if (this.L.consts.get(this.L.root[p]!) === 0n) return [];
          return [pos === 0 ? this.r(p) : `(${this.r(p)} << ${pos})`];
        });
        if (terms.length === 0) return '0';
        return w === 32 ? `(${terms.join(' | ')}) | 0` : terms.join(' | ');
      }
      case 'slice':
        if (c.lo === 0 && w === this.w(c.a)) return this.r(c.a);
        if (w === 32) return this.r(c.a);
        return c.lo === 0 ? `${this.r(c.a)} & ${M}` : `(${this.r(c.a)} >>> ${c.lo}) & ${M}`;
      case 'zext':
        return this.r(c.a);
      case 'sext': {
        const k = 32 - this.w(c.a);
        return w === 32 ? `(${this.r(c.a)} << ${k}) >> ${k}` : `((${this.r(c.a)} << ${k}) >> ${k}) & ${M}`;
      }
      case 'shl':
      case 'lshr':
      case 'ashr':
        return this.shiftExpr(c, w);
      default:
        return unreachableCell(c);
    }
  }

  private shiftExpr(c: { readonly op: StepCell['op']; readonly a: NetId; readonly b: NetId }, w: number): string {
    const M = mask(w);
    const a = this.r(c.a);
    const sh = this.unsigned(c.b);
    if (c.op === 'shl') return `${sh} >= ${w} ? 0 : ${w === 32 ? `${a} << ${sh}` : `(${a} << ${sh}) & ${M}`}`;
    if (c.op === 'lshr') return `${sh} >= ${w} ? 0 : ${w === 32 ? `(${a} >>> ${sh}) | 0` : `${a} >>> ${sh}`}`;
    const k = 32 - w;
    const x = k === 0 ? a : `((${a} << ${k}) >> ${k})`;
    return w === 32 ? `${sh} >= 32 ? ${x} >> 31 : ${x} >> ${sh}` : `(${sh} >= ${w} ? ${x} >> 31 : ${x} >> ${sh}) & ${M}`;
  }

  /** Narrow results computed from wide operands. */
  private wideNarrowExpr(c: Cell): string {
    const A = 'a' in c ? this.o(c.a as NetId) : -1;
    const aw = 'a' in c ? this.w(c.a as NetId) : 0;
    switch (c.op) {
      case 'eq':
        return `W.eq(s, ${A}, ${this.o(c.b)}, ${wordsOf(aw)})`;
      case 'ne':
        return `1 - W.eq(s, ${A}, ${this.o(c.b)}, ${wordsOf(aw)})`;
      case 'ult':
      case 'ule':
        return `W.ult(s, ${A}, ${this.o(c.b)}, ${wordsOf(aw)}, ${c.op === 'ule' ? 1 : 0})`;
      case 'slt':
      case 'sle':
        return `W.slt(s, ${A}, ${this.o(c.b)}, ${aw}, ${c.op === 'sle' ? 1 : 0})`;
      case 'redand':
        return `W.redand(s, ${A}, ${wordsOf(aw)}, ${topMask(aw)})`;
      case 'redor':
        return `W.redor(s, ${A}, ${wordsOf(aw)})`;
      case 'redxor':
        return `W.redxor(s, ${A}, ${wordsOf(aw)})`;
      case 'slice':
        return `W.extract(s, ${A}, ${wordsOf(aw)}, ${c.lo}, ${this.w(c.out)})`;
      default:
        // Reachable only by a bitwise or arithmetic cell whose operands are wider than its result: the netlist
        // allows it (modulo 2^w) but the elaborator and simplify.ts make none; the WebAssembly back end reads their low word.
        throw new Error(`internal: no narrow result of wide ${c.op}`);
    }
  }

  private wideCell(c: StepCell): string {
    const out = c.out;
    const w = this.w(out);
    const o = this.o(out);
    const n = wordsOf(w);
    const tm = topMask(w);
    const A = 'a' in c ? this.o(c.a as NetId) : -1;
    switch (c.op) {
      case 'not':
        return `W.not(s, ${o}, ${A}, ${n}, ${tm});`;
      case 'and':
      case 'or':
      case 'xor':
        return `W.${c.op}(s, ${o}, ${A}, ${this.o(c.b)}, ${n});`;
      case 'add':
      case 'sub':
      case 'mul':
        return `W.${c.op}(s, ${o}, ${A}, ${this.o(c.b)}, ${n}, ${tm});`;
      case 'eq':
        return `s[${o}] = W.eq(s, ${A}, ${this.o(c.b)}, ${wordsOf(this.w(c.a))});`;
      case 'ne':
        return `s[${o}] = 1 - W.eq(s, ${A}, ${this.o(c.b)}, ${wordsOf(this.w(c.a))});`;
      case 'ult':
      case 'ule':
        return `s[${o}] = W.ult(s, ${A}, ${this.o(c.b)}, ${wordsOf(this.w(c.a))}, ${c.op === 'ule' ? 1 : 0});`;
      case 'slt':
      case 'sle':
        return `s[${o}] = W.slt(s, ${A}, ${this.o(c.b)}, ${this.w(c.a)}, ${c.op === 'sle' ? 1 : 0});`;
      case 'shl':
        return `W.shl(s, ${o}, ${A}, ${n}, Math.min(${this.unsigned(c.b)}, ${w}), ${tm});`;
      case 'lshr':
      case 'ashr':
        return `W.shr(s, ${o}, ${A}, ${w}, Math.min(${this.unsigned(c.b)}, ${w}), ${c.op === 'ashr' ? 1 : 0});`;
      case 'redand':
        return `s[${o}] = W.redand(s, ${A}, ${wordsOf(this.w(c.a))}, ${topMask(this.w(c.a))});`;
      case 'redor':
        return `s[${o}] = W.redor(s, ${A}, ${wordsOf(this.w(c.a))});`;
      case 'redxor':
        return `s[${o}] = W.redxor(s, ${A}, ${wordsOf(this.w(c.a))});`;
      case 'mux':
        return `if (${this.r(c.sel)}) W.copy(s, ${o}, ${A}, ${n}); else W.copy(s, ${o}, ${this.o(c.b)}, ${n});`;
      case 'concat': {
        let pos = w;
        const ins = c.parts.map((p) => {
          pos -= this.w(p);
          return `W.insert(s, ${o}, ${pos}, ${this.o(p)}, ${this.w(p)});`;
        });
        return `W.clear(s, ${o}, ${n}); ${ins.join(' ')}`;
      }
      case 'slice':
        if (w <= 32) return `s[${o}] = W.extract(s, ${A}, ${wordsOf(this.w(c.a))}, ${c.lo}, ${w});`;
        return `W.extractTo(s, ${o}, ${n}, ${A}, ${wordsOf(this.w(c.a))}, ${c.lo}, ${tm});`;
      case 'zext':
        return `W.zext(s, ${o}, ${n}, ${A}, ${wordsOf(this.w(c.a))});`;
      case 'sext':
        return `W.sext(s, ${o}, ${n}, ${A}, ${this.w(c.a)}, ${tm});`;
      default:
        return unreachableCell(c);
    }
  }

  private asyncRead(mi: number, pi: number, store: boolean): string {
    const mem = this.L.flat.memories[mi]!;
    const p = mem.readPorts[pi]!;
    const out = this.L.root[p.data]!;
    const o = this.o(p.data);
    const n = wordsOf(mem.width);
    if (n > 1) return `{ const ad = ${this.unsigned(p.addr)}; for (let k = 0; k < ${n}; k++) s[${o} + k] = ad < ${mem.depth} ? m[${mi}][ad * ${n} + k] : 0; } // ${this.nm(p.data)}`;
    const code = `const a${out} = ${this.unsigned(p.addr)}; const v${out} = a${out} < ${mem.depth} ? m[${mi}][a${out}] : 0;${store ? ` s[${o}] = v${out};` : ''} // ${this.nm(p.data)}`;
    this.locals.add(out);
    return code;
  }

  /** The clock edge in stepPlan.ts's order, one register at a time (no write order: a register reading state goes through the shadow `t`). */
  private commit(): string[] {
    const L = this.L;
    const plan = clockEdgePlan(L.flat, registerByRegister(L));
    // With several clock edges, `ev` says which commit: each statement runs only on its own edge.
    const edges = clockEdges(L.flat);
    const on = (x: { readonly clock?: ClockEdge }, stmt: string) => (edges.length > 1 ? `if (ev & ${edgeBit(edges, x)}) { ${stmt} }` : stmt);
    const lines: string[] = [];
    const copyBack: string[] = [];
    const words = (id: NetId) => wordsOf(this.w(id));
    // 1. Synchronous reads see the memory before this edge's writes.
    for (const { mem: mi, port } of plan.syncReads) {
      const mem = L.flat.memories[mi]!;
      const p = mem.readPorts[port]!;
      const o = this.o(p.data);
      const n = wordsOf(mem.width);
      const read = n === 1 ? `t[${o}] = ad < ${mem.depth} ? m[${mi}][ad] : 0;` : `for (let k = 0; k < ${n}; k++) t[${o} + k] = ad < ${mem.depth} ? m[${mi}][ad * ${n} + k] : 0;`;
      const hold = n === 1 ? `t[${o}] = s[${o}];` : `for (let k = 0; k < ${n}; k++) t[${o} + k] = s[${o} + k];`;
      lines.push(on(p, `${p.en === undefined ? '' : `if (${this.r(p.en)}) `}{ const ad = ${this.unsigned(p.addr)}; ${read} }${p.en === undefined ? '' : ` else { ${hold} }`}`) + ` // ${this.nm(p.data)}`);
      copyBack.push(on(p, n === 1 ? `s[${o}] = t[${o}];` : `for (let k = 0; k < ${n}; k++) s[${o} + k] = t[${o} + k];`));
    }
    // 2 and 4. A register whose inputs include a register or read port output must see the old value,
    // so it goes through the shadow array; the rest (the common case) are written directly after the
    // memory writes, which may also read register outputs.
    const register = (r: (typeof L.flat.regs)[number], shadow: boolean): string => {
      const A = shadow ? 't' : 's';
      const q = this.o(r.q);
      const n = words(r.q);
      const d = r.d;
      const take = n === 1 ? `${A}[${q}] = ${this.r(d)};` : `for (let k = 0; k < ${n}; k++) ${A}[${q} + k] = s[${this.o(d)} + k];`;
      const hold = !shadow ? '' : n === 1 ? `t[${q}] = s[${q}];` : `for (let k = 0; k < ${n}; k++) t[${q} + k] = s[${q} + k];`;
      let stmt = r.en === undefined ? take : `if (${this.r(r.en)}) { ${take} }${hold ? ` else { ${hold} }` : ''}`;
      if (r.reset) stmt = `if (${resetAssertedJs(r.reset, this.r(r.reset.net))}) { ${this.setConst(r.q, r.reset.value).replace(/\bs\[/g, `${A}[`)} } else { ${stmt} }`;
      if (shadow) copyBack.push(on(r, n === 1 ? `s[${q}] = t[${q}];` : `for (let k = 0; k < ${n}; k++) s[${q} + k] = t[${q} + k];`));
      return `${on(r, stmt)} // ${this.nm(r.q)}`;
    };
    for (const g of plan.shadowedGroups) for (const r of plan.groups[g]!.regs) lines.push(register(r, true));
    const direct = plan.directGroups.flatMap((g) => plan.groups[g]!.regs.map((r) => register(r, false)));
    // 3. Memory writes, in port order.
    for (const { mem: mi, port } of plan.writes) {
      const mem = L.flat.memories[mi]!;
      const p = mem.writePorts[port]!;
      const n = wordsOf(mem.width);
      const d = this.o(p.data);
      let body: string;
      if (p.mask === undefined) {
        body = n === 1 ? `m[${mi}][ad] = ${this.r(p.data)};` : `for (let k = 0; k < ${n}; k++) m[${mi}][ad * ${n} + k] = s[${d} + k];`;
      } else {
        const g = p.maskGranularity!;
        const lanes: string[] = [];
        for (let i = 0; i < mem.width / g; i++) {
          const bit = this.wide(p.mask) ? `W.extract(s, ${this.o(p.mask)}, ${words(p.mask)}, ${i}, 1)` : `((${this.r(p.mask)} >>> ${i}) & 1)`;
          const parts: string[] = [];
          for (let b = i * g; b < (i + 1) * g; ) {
            const k = b >> 5;
            const lo = b & 31;
            const hi = Math.min(31, lo + ((i + 1) * g - b) - 1);
            const wm = hi - lo + 1 === 32 ? -1 : ((2 ** (hi - lo + 1) - 1) << lo) | 0;
            const dv = n === 1 ? this.r(p.data) : `s[${d + k}]`;
            parts.push(`m[${mi}][ad * ${n} + ${k}] = (m[${mi}][ad * ${n} + ${k}] & ${~wm}) | (${dv} & ${wm | 0});`);
            b += hi - lo + 1;
          }
          lanes.push(`if (${bit}) { ${parts.join(' ')} }`);
        }
        body = lanes.join(' ');
      }
      lines.push(on(p, `if (${this.r(p.en)}) { const ad = ${this.unsigned(p.addr)}; if (ad < ${mem.depth}) { ${body} } }`) + ` // write ${mem.name}`);
    }
    // 5. Copy back from the shadow.
    return [...lines, ...direct, ...copyBack];
  }
}
