// Prepares a flat netlist for code generation: copy propagation, a topological step order, and packed state slots.
import type { Cell, Memory, ModuleIR, Net, NetId } from '../../ir/netlist.ts';
import { cellInputs } from '../../ir/netlist.ts';
import { wordsOf } from './wideOps.ts';
import type { LeadingZeroCount } from './leadingZeros.ts';
import type { ShiftRightJam } from './shiftRightJam.ts';
import { observableNets } from './stepPlan.ts';

export interface Slot {
  readonly off: number;
  readonly words: number;
  readonly width: number;
}

/**
 * A combinational step: a cell, an asynchronous memory read, or a recognized leading-zero counter or
 * sticky right shift (in place of the cells that build it).
 */
/**
 * A cell that is a step: levelization (`order`) drops constants (their values live in `consts`) and copies
 * (`buf`, which shares its operand's slot: `isCopy`), so no generator meets those two.
 */
export type StepCell = Cell & { readonly op: Exclude<Cell['op'], 'const' | 'buf'> };

/** The default of a switch over a StepCell's op that has a case for each: a type error when one is missing. */
export function unreachableCell(c: never): never {
  throw new Error(`internal: no code for the step ${(c as Cell).op}`);
}

export type CombStep = { readonly kind: 'cell'; readonly cell: StepCell } | { readonly kind: 'aread'; readonly mem: number; readonly port: number } | LeadingZeroCount | ShiftRightJam;

export interface Layout {
  readonly flat: ModuleIR;
  /** Net -> the net that holds its value (after removing copies: `buf`, and zero extensions within a word). */
  readonly root: Int32Array;
  readonly slots: readonly Slot[];
  readonly stateWords: number;
  /** Constant values by root net (initialized once, never recomputed). */
  readonly consts: ReadonlyMap<NetId, bigint>;
  /**
   * In dependency order: first the `liveSteps` whose values reach a port, a register, a memory or the
   * clock edge, then those only a peek or a waveform can see (computed by the store-everything comb only).
   */
  readonly steps: readonly CombStep[];
  readonly liveSteps: number;
  /** Maximal runs of consecutive steps of one instance, covering the live steps in order. */
  readonly runs: readonly StepRun[];
  /**
   * Values of at most 32 bits read by MATERIALIZE_READERS live steps or more: the WebAssembly back end
   * stores them when computed and reloads them where read instead of holding them in a local. V8
   * computes pure values level by level, so a decoder's outputs, each read in many places, would all be
   * live at once and spilled to the stack again and again (rtcore: 1.10 M -> 1.28 M cycles/s).
   */
  readonly materialized: ReadonlySet<NetId>;
}

/** See Layout.materialized. */
export const MATERIALIZE_READERS = 6;

/** Steps [start, end) all belong to one instance (hierarchical name prefix). */
export interface StepRun {
  readonly instance: string;
  readonly start: number;
  readonly end: number;
}

/**
 * `special`: steps that compute a net in place of the cell driving it (the same value, cheaper), and
 * whose inputs are the only ones that count for that net.
 */
export function layoutNetlist(flat: ModuleIR, special: ReadonlyMap<NetId, CombStep> = new Map()): Layout {
  const n = flat.nets.length;
  const parent = new Int32Array(n).map((_, i) => i);
  for (const c of flat.cells) if (isCopy(flat, c)) parent[c.out] = (c as { a: NetId }).a;
  const root = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let r = i;
    for (let guard = 0; parent[r] !== r; guard++) {
      if (guard > n) throw new Error(`combinational loop through copies at '${flat.nets[i]!.name}'`);
      r = parent[r]!;
    }
    root[i] = r;
  }
  const consts = new Map<NetId, bigint>();
  for (const c of flat.cells) if (c.op === 'const') consts.set(c.out, c.value);
  const { steps, liveSteps, runs } = order(flat, root, consts, special);

  const readers = new Map<NetId, number>();
  for (let i = 0; i < liveSteps; i++) for (const id of stepInputsOf(flat, steps[i]!)) readers.set(root[id]!, (readers.get(root[id]!) ?? 0) + 1);
  const materialized = new Set<NetId>();
  for (let i = 0; i < liveSteps; i++) {
    const out = outputOf(flat, root, steps[i]!);
    if ((readers.get(out) ?? 0) >= MATERIALIZE_READERS && flat.nets[out]!.width <= 32) materialized.add(out);
  }
  const { slots, words } = assignSlots(flat, root, steps, liveSteps, runs, materialized);
  return { flat, root, slots, stateWords: words, consts, steps, liveSteps, runs, materialized };
}

/**
 * State slots, packed so that what the fast comb and the clock edge load and store comes first: state,
 * then the nets the clock edge and the ports read, then values crossing from one instance's run to
 * another's; the rest (values only peeks and waveforms see) after them. Spread over more than 4 KiB,
 * a load soon after a store to an address with the same low 12 bits stalls: unpacked, the bench
 * design ran 2.8 M cycles/s, packed 4.1 – 4.9 M.
 */
function assignSlots(flat: ModuleIR, root: Int32Array, steps: readonly CombStep[], liveSteps: number, runs: readonly StepRun[], materialized: ReadonlySet<NetId>): { slots: Slot[]; words: number } {
  let off = 0;
  const slots: Slot[] = new Array(flat.nets.length);
  const place = (id: NetId) => {
    if (slots[id] || root[id] !== id) return;
    const net = flat.nets[id]!;
    slots[id] = { off, words: wordsOf(net.width), width: net.width };
    off += slots[id]!.words;
  };
  for (const net of flat.nets) if (net.kind === 'input' || net.kind === 'reg' || net.kind === 'memread') place(net.id);
  const observable = observableNets({ flat, root });
  const outOf = (st: CombStep) => outputOf(flat, root, st);
  for (let i = 0; i < liveSteps; i++) if (observable.has(outOf(steps[i]!)) || materialized.has(outOf(steps[i]!))) place(outOf(steps[i]!));
  const runOf = new Map<NetId, number>();
  runs.forEach((r, k) => {
    for (let i = r.start; i < r.end; i++) runOf.set(outOf(steps[i]!), k);
  });
  runs.forEach((r, k) => {
    for (let i = r.start; i < r.end; i++) for (const id of stepInputsOf(flat, steps[i]!)) if (runOf.has(root[id]!) && runOf.get(root[id]!) !== k) place(root[id]!);
  });
  for (const net of flat.nets) place(net.id);
  for (const net of flat.nets) if (root[net.id] !== net.id) slots[net.id] = slots[root[net.id]!]!;
  return { slots, words: off };

}

/**
 * A cell whose value is its operand's, word for word: `buf`, and zero extension to at most 32 bits (a
 * word holds the narrower value zero-extended already). Its net shares the operand's slot.
 */
function isCopy(flat: ModuleIR, c: Cell): boolean {
  return c.op === 'buf' || (c.op === 'zext' && flat.nets[c.out]!.width <= 32);
}

/** `c` as a step, or undefined for a constant or a copy (no step computes those). */
function stepCell(flat: ModuleIR, c: Cell): StepCell | undefined {
  return c.op === 'const' || isCopy(flat, c) ? undefined : (c as StepCell);
}

/** The instance a step belongs to: its output net's hierarchical name without the last component. */
function instanceOf(flat: ModuleIR, out: NetId): string {
  const name = flat.nets[out]!.name;
  return name.slice(0, Math.max(0, name.lastIndexOf('.')));
}

/**
 * Kahn's algorithm over combinational dependencies (sources: inputs, registers, sync reads, constants).
 * Among the ready steps it keeps taking those of the current instance, so that each instance's logic
 * forms a few long contiguous runs: the unit the WebAssembly back end skips when its inputs are unchanged.
 */
function order(flat: ModuleIR, root: Int32Array, consts: ReadonlyMap<NetId, bigint>, special: ReadonlyMap<NetId, CombStep>): { steps: CombStep[]; liveSteps: number; runs: StepRun[] } {
  const steps: { step: CombStep; out: NetId; ins: NetId[] }[] = [];
  for (const cell of flat.cells) {
    const c = stepCell(flat, cell);
    if (!c) continue;
    const sp = special.get(c.out);
    const ins = sp ? stepInputsOf(flat, sp) : cellInputs(c);
    steps.push({ step: sp ?? { kind: 'cell', cell: c }, out: root[c.out]!, ins: ins.map((i) => root[i]!) });
  }
  flat.memories.forEach((m: Memory, mi) =>
    m.readPorts.forEach((p, pi) => {
      if (p.kind === 'async') steps.push({ step: { kind: 'aread', mem: mi, port: pi }, out: root[p.data]!, ins: [root[p.addr]!] });
    }),
  );
  const producer = new Map<NetId, number>();
  steps.forEach((s, i) => producer.set(s.out, i));
  // Live: read, through other steps, by a port, a register, a memory port or the clock edge.
  const live = new Uint8Array(steps.length);
  const work: number[] = [];
  for (const id of observableNets({ flat, root })) {
    const p = producer.get(id);
    if (p !== undefined && !live[p]) work.push(p), (live[p] = 1);
  }
  while (work.length) {
    for (const inp of steps[work.pop()!]!.ins) {
      const p = producer.get(inp);
      if (p !== undefined && !live[p]) work.push(p), (live[p] = 1);
    }
  }
  const instance = steps.map((s) => instanceOf(flat, s.out));
  const liveOrder = topological(flat, steps, instance, producer, consts, (i) => live[i] === 1);
  const deadOrder = topological(flat, steps, instance, producer, consts, (i) => live[i] === 0);
  const split = splitRunsIntoComponents(liveOrder.out, liveOrder.runs, steps, producer, consts);
  return { steps: [...split.order, ...deadOrder.out].map((i) => steps[i]!.step), liveSteps: split.order.length, runs: split.runs };
}

/**
 * Kahn's algorithm over the steps `take` accepts (steps outside are ready already). Among the ready
 * steps it keeps taking those of the current instance, so that each instance's logic forms a few long
 * contiguous runs.
 */
function topological(
  flat: ModuleIR,
  steps: readonly { step: CombStep; out: NetId; ins: NetId[] }[],
  instance: readonly string[],
  producer: ReadonlyMap<NetId, number>,
  consts: ReadonlyMap<NetId, bigint>,
  take: (i: number) => boolean,
): { out: number[]; runs: StepRun[] } {
  const indegree = new Int32Array(steps.length);
  const users: number[][] = steps.map(() => []);
  steps.forEach((s, i) => {
    if (!take(i)) return;
    for (const inp of new Set(s.ins)) {
      const p = producer.get(inp);
      if (p !== undefined && take(p) && !consts.has(inp)) {
        indegree[i]!++;
        users[p]!.push(i);
      }
    }
  });
  const ready = new Map<string, number[]>();
  // Instances in the order they first had a ready step (entries may be empty by the time they are reached).
  const waiting: string[] = [];
  const makeReady = (i: number) => {
    const key = instance[i]!;
    let list = ready.get(key);
    if (!list) ready.set(key, (list = []));
    if (!list.length) waiting.push(key);
    list.push(i);
  };
  indegree.forEach((d, i) => d === 0 && take(i) && makeReady(i));
  const out: number[] = [];
  const runs: StepRun[] = [];
  let current: number[] | undefined;
  for (let next = 0; ; ) {
    while (!current?.length && next < waiting.length) current = ready.get(waiting[next++]!);
    if (!current?.length) break;
    const i = current.pop()!;
    const last = runs[runs.length - 1];
    if (last && last.instance === instance[i] && last.end === out.length) (last as { end: number }).end++;
    else runs.push({ instance: instance[i]!, start: out.length, end: out.length + 1 });
    out.push(i);
    for (const u of users[i]!) if (--indegree[u]! === 0) makeReady(u);
  }
  const expected = steps.reduce((n, _, i) => n + (take(i) ? 1 : 0), 0);
  if (out.length !== expected) {
    const stuck = steps.filter((_, i) => take(i) && indegree[i]! > 0).map((s) => flat.nets[s.out]!.name);
    throw new Error(`combinational loop among: ${stuck.slice(0, 12).join(', ')}${stuck.length > 12 ? ', …' : ''}`);
  }
  return { out, runs };
}

/**
 * Within a run, steps that share no path inside the run (a unit's pipeline stages, the lanes of a
 * vector unit, a core's independent stages) are independent: grouped into one run each (keeping their
 * order, so the order stays topological), a change at one stage's inputs no longer wakes the others.
 * Consecutive components shorter than `minSteps` are kept together.
 */
function splitRunsIntoComponents(
  order: readonly number[],
  runs: readonly StepRun[],
  steps: readonly { out: NetId; ins: NetId[] }[],
  producer: ReadonlyMap<NetId, number>,
  consts: ReadonlyMap<NetId, bigint>,
  minSteps = 16,
): { order: number[]; runs: StepRun[] } {
  const position = new Int32Array(steps.length);
  order.forEach((i, k) => (position[i] = k));
  const parent = new Int32Array(order.length).map((_, k) => k);
  const find = (k: number): number => {
    while (parent[k] !== k) k = parent[k] = parent[parent[k]!]!;
    return k;
  };
  const newOrder: number[] = [];
  const newRuns: StepRun[] = [];
  for (const run of runs) {
    for (let k = run.start; k < run.end; k++) {
      for (const inp of steps[order[k]!]!.ins) {
        const p = producer.get(inp);
        if (p === undefined || consts.has(inp)) continue;
        const q = position[p]!;
        if (q >= run.start && q < run.end) parent[find(k)] = find(q);
      }
    }
    // Components in the order of their first step; each keeps its steps' order.
    const members = new Map<number, number[]>();
    for (let k = run.start; k < run.end; k++) {
      const c = find(k);
      let list = members.get(c);
      if (!list) members.set(c, (list = []));
      list.push(order[k]!);
    }
    let small: StepRun | undefined;
    for (const list of members.values()) {
      const start = newOrder.length;
      newOrder.push(...list);
      if (list.length >= minSteps) {
        newRuns.push({ instance: run.instance, start, end: newOrder.length });
        small = undefined;
      } else if (small && small.end === start) (small as { end: number }).end = newOrder.length;
      else newRuns.push((small = { instance: run.instance, start, end: newOrder.length }));
    }
  }
  return { order: newOrder, runs: newRuns };
}

function outputOf(flat: ModuleIR, root: Int32Array, st: CombStep): NetId {
  return root[st.kind === 'cell' ? st.cell.out : st.kind === 'aread' ? flat.memories[st.mem]!.readPorts[st.port]!.data : st.out]!;
}

/** The nets a step reads (not resolved to roots). */
export function stepInputs(L: Layout, st: CombStep): readonly NetId[] {
  return stepInputsOf(L.flat, st);
}

function stepInputsOf(flat: ModuleIR, st: CombStep): readonly NetId[] {
  switch (st.kind) {
    case 'cell':
      return cellInputs(st.cell);
    case 'clz':
      return [st.src];
    case 'sjam':
      return [st.x, st.amount];
    case 'aread':
      return [flat.memories[st.mem]!.readPorts[st.port]!.addr];
  }
}

/** The root net a step computes. */
export function stepOutput(L: Layout, st: CombStep): NetId {
  return outputOf(L.flat, L.root, st);
}

export function netByName(flat: ModuleIR): Map<string, Net> {
  return new Map(flat.nets.map((n) => [n.name, n]));
}
