// Netlist simplification: constant folding, algebraic identities and shared subexpressions (the TS simulator's and the readable SV's).
//
// Every rewrite is exact: a simplified net holds the same value as before on every cycle, so peeks, VCD and
// the other back ends see nothing different. A cell becomes a `const`, a `buf` of an equal net (the layout
// then gives both one slot), or a cheaper cell with the same output. Nets are never removed.
import type { Cell, ModuleIR, NetId } from './netlist.ts';
import { cellInputs } from './netlist.ts';

const mask = (w: number) => (1n << BigInt(w)) - 1n;

/** The value of a cell whose operands are all known (bigint semantics of netlist.ts). */
export function evaluateCell(c: Cell, width: (id: NetId) => number, v: (id: NetId) => bigint): bigint {
  const w = width(c.out);
  const m = mask(w);
  const signed = (id: NetId) => BigInt.asIntN(width(id), v(id));
  switch (c.op) {
    case 'const':
      return c.value;
    case 'buf':
      return v(c.a);
    case 'not':
      return ~v(c.a) & m;
    case 'redand':
      return v(c.a) === mask(width(c.a)) ? 1n : 0n;
    case 'redor':
      return v(c.a) !== 0n ? 1n : 0n;
    case 'redxor': {
      let x = v(c.a);
      let p = 0n;
      while (x) {
        p ^= x & 1n;
        x >>= 1n;
      }
      return p;
    }
    case 'zext':
      return v(c.a);
    case 'sext':
      return BigInt.asUintN(w, signed(c.a));
    case 'and':
      return v(c.a) & v(c.b);
    case 'or':
      return v(c.a) | v(c.b);
    case 'xor':
      return v(c.a) ^ v(c.b);
    case 'add':
      return (v(c.a) + v(c.b)) & m;
    case 'sub':
      return (v(c.a) - v(c.b)) & m;
    case 'mul':
      return (v(c.a) * v(c.b)) & m;
    case 'eq':
      return v(c.a) === v(c.b) ? 1n : 0n;
    case 'ne':
      return v(c.a) !== v(c.b) ? 1n : 0n;
    case 'ult':
      return v(c.a) < v(c.b) ? 1n : 0n;
    case 'ule':
      return v(c.a) <= v(c.b) ? 1n : 0n;
    case 'slt':
      return signed(c.a) < signed(c.b) ? 1n : 0n;
    case 'sle':
      return signed(c.a) <= signed(c.b) ? 1n : 0n;
    case 'shl': {
      const s = v(c.b);
      return s >= BigInt(w) ? 0n : (v(c.a) << s) & m;
    }
    case 'lshr': {
      const s = v(c.b);
      return s >= BigInt(w) ? 0n : v(c.a) >> s;
    }
    case 'ashr': {
      const s = v(c.b);
      return BigInt.asUintN(w, signed(c.a) >> (s >= BigInt(w) ? BigInt(w - 1) : s));
    }
    case 'mux':
      return v(c.sel) ? v(c.a) : v(c.b);
    case 'concat': {
      let x = 0n;
      for (const p of c.parts) x = (x << BigInt(width(p))) | v(p);
      return x;
    }
    case 'slice':
      return (v(c.a) >> BigInt(c.lo)) & m;
  }
}

/** What a cell reduces to: a constant, another net, or a (possibly rewritten) cell with the same output. */
type Result = { readonly const: bigint } | { readonly net: NetId } | { readonly cell: Cell };

export interface SimplifyOptions {
  /**
   * For the readable emitter: every net the TypeScript names is kept (its readers go on reading it, not an equal
   * net or what its cell reads, and it holds a shared cell before an unnamed net; its constant value still folds),
   * a mux lowered from when/switch is never shared (its shape is the if/case printed), and a 1-bit enum stays
   * compared with its member. Absent: any net may stand for an equal one (the TS simulator).
   */
  readonly readable?: boolean;
}

/**
 * The netlist with simplified cells (same nets, same registers, memories, instances and ports). Cells are
 * visited in dependency order, so each sees its operands already simplified.
 */
export function simplifyNetlist(flat: ModuleIR, opts: SimplifyOptions = {}): ModuleIR {
  const nets = flat.nets;
  const width = (id: NetId) => nets[id]!.width;
  const readable = opts.readable ?? false;
  const keep = (id: NetId) => readable && !nets[id]!.synthesized;
  const isEnum = (id: NetId) => readable && nets[id]!.enumType !== undefined;
  // Canonical net of each net (after bufs and merges) and the constants known so far.
  const alias = new Int32Array(nets.length).map((_, i) => i);
  const canon = (id: NetId): NetId => {
    while (alias[id] !== id) id = alias[id]!;
    return id;
  };
  const known = new Map<NetId, bigint>();
  const current: (Cell | undefined)[] = new Array(nets.length);
  const seen = new Map<string, NetId>();
  // The cell index of each shared subexpression's net, for handing it over to a kept net.
  const indexOf = new Map<NetId, number>();
  let handedOver = false;

  const order = dependencyOrder(flat);
  // A combinational loop: left to the layout, which reports it.
  if (!order) return flat;
  const result: Cell[] = flat.cells.slice();
  const knownOf = (id: NetId) => known.get(id);
  const cellOf = (id: NetId) => current[id];
  for (const k of order) {
    const c = renameInputs(flat.cells[k]!, canon);
    const r = simplifyCell(c, width, knownOf, cellOf, isEnum);
    let cell: Cell;
    if ('const' in r) {
      known.set(c.out, r.const);
      cell = { op: 'const', out: c.out, value: r.const };
    } else if ('net' in r) {
      if (!keep(c.out)) alias[c.out] = r.net;
      const v = known.get(r.net);
      if (v !== undefined) known.set(c.out, v);
      cell = { op: 'buf', out: c.out, a: r.net };
    } else {
      cell = r.cell;
      // The same operation on the same operands: one of them is enough.
      const key = readable && cell.op === 'mux' && cell.branch ? undefined : cellKey(cell, width);
      const first = key === undefined ? undefined : seen.get(key);
      if (first !== undefined && holdsBefore(c.out, first)) {
        // This net computes it and the earlier one becomes its alias (readers renamed at the end).
        alias[first] = c.out;
        result[indexOf.get(first)!] = { op: 'buf', out: first, a: c.out };
        handedOver = true;
        current[first] = undefined;
        shareCell(cell, k, key);
      } else if (first !== undefined) {
        if (!keep(c.out)) alias[c.out] = first;
        cell = { op: 'buf', out: c.out, a: first };
      } else shareCell(cell, k, key);
    }
    result[k] = cell;
  }

  /** A kept net holds a shared cell before an unkept one, and among kept nets the first declared. */
  function holdsBefore(x: NetId, y: NetId): boolean {
    return keep(x) && (!keep(y) || x < y);
  }

  function shareCell(cell: Cell, k: number, key: string | undefined): void {
    if (key !== undefined) seen.set(key, cell.out);
    indexOf.set(cell.out, k);
    // A kept net is read by name: later cells do not look through it.
    if (!keep(cell.out)) current[cell.out] = cell;
  }
  return { ...flat, cells: handedOver ? result.map((c) => renameInputs(c, canon)) : result };
}

function cellKey(c: Cell, width: (id: NetId) => number): string {
  const w = width(c.out);
  switch (c.op) {
    case 'slice':
      return `slice ${w} ${c.a} ${c.lo}`;
    case 'const':
      return `const ${w} ${c.value}`;
    default:
      return `${c.op} ${w} ${cellInputs(c).join(',')}`;
  }
}

/** Cell indices in dependency order (Kahn's; registers, inputs and memory reads are sources), or null on a loop. */
function dependencyOrder(flat: ModuleIR): number[] | null {
  const cells = flat.cells;
  const producer = new Int32Array(flat.nets.length).fill(-1);
  cells.forEach((c, k) => (producer[c.out] = k));
  const pending = new Int32Array(cells.length);
  // Users of each cell as a compressed list: first count, then fill.
  const start = new Int32Array(cells.length + 1);
  const inputs = cells.map((c) => cellInputs(c));
  inputs.forEach((ins) => ins.forEach((i) => producer[i]! >= 0 && start[producer[i]! + 1]!++));
  for (let k = 0; k < cells.length; k++) start[k + 1]! += start[k]!;
  const fill = start.slice(0, cells.length);
  const users = new Int32Array(start[cells.length]!);
  inputs.forEach((ins, k) =>
    ins.forEach((i) => {
      const p = producer[i]!;
      if (p < 0) return;
      users[fill[p]!++] = k;
      pending[k]!++;
    }),
  );
  const ready: number[] = [];
  for (let k = 0; k < cells.length; k++) if (pending[k] === 0) ready.push(k);
  const out: number[] = [];
  while (ready.length) {
    const k = ready.pop()!;
    out.push(k);
    for (let u = start[k]!; u < start[k + 1]!; u++) if (--pending[users[u]!]! === 0) ready.push(users[u]!);
  }
  return out.length === cells.length ? out : null;
}

/** The cell with its operands replaced by their canonical nets (the same object when none changes). */
function renameInputs(c: Cell, f: (id: NetId) => NetId): Cell {
  switch (c.op) {
    case 'const':
      return c;
    case 'mux': {
      const [sel, a, b] = [f(c.sel), f(c.a), f(c.b)];
      return sel === c.sel && a === c.a && b === c.b ? c : { ...c, sel, a, b };
    }
    case 'concat': {
      const parts = c.parts.map(f);
      return parts.every((p, i) => p === c.parts[i]) ? c : { ...c, parts };
    }
    default: {
      const a = f(c.a);
      if ('b' in c) {
        const b = f(c.b);
        return a === c.a && b === c.b ? c : { ...c, a, b };
      }
      return a === c.a ? c : { ...c, a };
    }
  }
}

function simplifyCell(
  c: Cell,
  width: (id: NetId) => number,
  known: (id: NetId) => bigint | undefined,
  cellOf: (id: NetId) => Cell | undefined,
  isEnum: (id: NetId) => boolean,
): Result {
  if (c.op === 'const') return { const: c.value };
  if (c.op === 'buf') return { net: c.a };
  const ins = cellInputs(c);
  if (ins.every((i) => known(i) !== undefined)) return { const: evaluateCell(c, width, (i) => known(i)!) };
  const w = width(c.out);
  const ones = mask(w);
  const k = (id: NetId) => known(id);
  switch (c.op) {
    case 'and':
    case 'or':
    case 'xor': {
      const [x, y] = k(c.a) !== undefined ? [c.b, k(c.a)!] : [c.a, k(c.b)];
      if (c.a === c.b) return c.op === 'xor' ? { const: 0n } : { net: c.a };
      if (y === undefined) break;
      if (c.op === 'and') return y === 0n ? { const: 0n } : y === ones ? { net: x } : { cell: c };
      if (c.op === 'or') return y === 0n ? { net: x } : y === ones ? { const: ones } : { cell: c };
      return y === 0n ? { net: x } : y === ones ? { cell: { op: 'not', out: c.out, a: x } } : { cell: c };
    }
    case 'add':
    case 'sub':
      if (k(c.b) === 0n) return { net: c.a };
      if (c.op === 'add' && k(c.a) === 0n) return { net: c.b };
      break;
    case 'mul':
      if (k(c.a) === 0n || k(c.b) === 0n) return { const: 0n };
      if (k(c.a) === 1n) return { net: c.b };
      if (k(c.b) === 1n) return { net: c.a };
      break;
    case 'not': {
      const p = cellOf(c.a);
      if (p?.op === 'not') return { net: p.a };
      break;
    }
    case 'mux': {
      const s = k(c.sel);
      if (s !== undefined) return { net: s ? c.a : c.b };
      if (c.a === c.b) return { net: c.a };
      if (w === 1 && k(c.a) === 1n && k(c.b) === 0n) return { net: c.sel };
      if (w === 1 && k(c.a) === 0n && k(c.b) === 1n) return { cell: { op: 'not', out: c.out, a: c.sel } };
      break;
    }
    case 'redand':
    case 'redor':
    case 'redxor':
      if (width(c.a) === 1) return { net: c.a };
      break;
    case 'eq':
    case 'ne': {
      if (c.a === c.b) return { const: c.op === 'eq' ? 1n : 0n };
      if (width(c.a) !== 1 || isEnum(c.a) || isEnum(c.b)) break;
      const [x, y] = k(c.a) !== undefined ? [c.b, k(c.a)!] : [c.a, k(c.b)];
      if (y === undefined) break;
      // A 1-bit comparison with a constant is the bit or its complement.
      return (y === 1n) === (c.op === 'eq') ? { net: x } : { cell: { op: 'not', out: c.out, a: x } };
    }
    case 'zext': {
      const p = cellOf(c.a);
      if (p?.op === 'zext') return { cell: { op: 'zext', out: c.out, a: p.a } };
      break;
    }
    case 'slice':
      return simplifySlice(c, width, k, cellOf);
    case 'concat': {
      if (c.parts.length === 1) return { net: c.parts[0]! };
      // Adjacent slices of one net, most significant first, make one slice.
      const slices = c.parts.map((p) => cellOf(p));
      if (slices.every((s) => s?.op === 'slice')) {
        const ss = slices as Extract<Cell, { op: 'slice' }>[];
        let lo = ss[ss.length - 1]!.lo;
        let ok = ss.every((s) => s.a === ss[0]!.a);
        for (let i = ss.length - 1; ok && i >= 0; i--) {
          if (ss[i]!.lo !== lo) ok = false;
          lo += width(ss[i]!.out);
        }
        if (ok) return simplifySlice({ op: 'slice', out: c.out, a: ss[0]!.a, lo: ss[ss.length - 1]!.lo }, width, k, cellOf);
      }
      break;
    }
    case 'shl':
    case 'lshr':
    case 'ashr':
      if (k(c.b) === 0n) return { net: c.a };
      if (c.op !== 'ashr' && k(c.b) !== undefined && k(c.b)! >= BigInt(w)) return { const: 0n };
      break;
  }
  return { cell: c };
}

function simplifySlice(c: Extract<Cell, { op: 'slice' }>, width: (id: NetId) => number, k: (id: NetId) => bigint | undefined, cellOf: (id: NetId) => Cell | undefined): Result {
  const w = width(c.out);
  if (c.lo === 0 && w === width(c.a)) return { net: c.a };
  const p = cellOf(c.a);
  if (p?.op === 'slice') return simplifySlice({ op: 'slice', out: c.out, a: p.a, lo: p.lo + c.lo }, width, k, cellOf);
  if (p?.op === 'zext') {
    const aw = width(p.a);
    if (c.lo >= aw) return { const: 0n };
    if (c.lo + w <= aw) return simplifySlice({ op: 'slice', out: c.out, a: p.a, lo: c.lo }, width, k, cellOf);
  }
  if (p?.op === 'sext' && c.lo + w <= width(p.a)) return simplifySlice({ op: 'slice', out: c.out, a: p.a, lo: c.lo }, width, k, cellOf);
  if (p?.op === 'concat') {
    // The part that holds every bit of the slice (parts are most significant first).
    let pos = width(p.out);
    for (const part of p.parts) {
      const pw = width(part);
      pos -= pw;
      if (c.lo >= pos && c.lo + w <= pos + pw) {
        const kp = k(part);
        if (kp !== undefined) return { const: (kp >> BigInt(c.lo - pos)) & mask(w) };
        return simplifySlice({ op: 'slice', out: c.out, a: part, lo: c.lo - pos }, width, k, cellOf);
      }
    }
  }
  return { cell: c };
}
