// Where the WebAssembly back end keeps everything in linear memory (state, shadow, memories, batches,
// dirty flags, counters), and whether it can run a netlist at all.
import { cellInputs, type Cell, type ClockEdge, type NetId } from '../../ir/netlist.ts';
import type { Layout } from './layout.ts';
import { activityRegions, type ActivityRegion } from './activityRegions.ts';
import { commitGroups, type CommitGroup } from './commitGroups.ts';
import { inPlaceRegisters, type InPlaceRegisters } from './inPlace.ts';
import { clockEdges } from './stepPlan.ts';
import { asyncResets } from './asyncResets.ts';

export interface WasmLayout {
  /** Byte offsets in linear memory. */
  readonly shadowByte: number;
  readonly memoryBytes: readonly number[];
  /** A region for batches of stimulus and output rows of the fused run loop. */
  readonly batchByte: number;
  readonly batchWords: number;
  readonly pages: number;
  /** The runs of steps, in order; those with inputs are skipped unless one of their inputs changed. */
  readonly regions: readonly ActivityRegion[];
  /**
   * Per region, its dirty flag (i32, nonzero: evaluate it). Whoever changes a region's input sets it:
   * the region that computes the input, the clock edge (registers, sync reads, memory writes), or the
   * comparison of the top-level inputs with their copies at the start of comb.
   */
  readonly dirtyBytes: readonly number[];
  /** The registers in groups the clock edge skips while their inputs hold; per group its dirty flag, and for shadowed groups a flag "updated in this edge's shadow". */
  readonly commitGroups: readonly CommitGroup[];
  readonly groupDirtyBytes: readonly number[];
  readonly groupShadowedBytes: readonly number[];
  /** Per root net read by a skippable region or a commit group: the dirty flags (byte addresses) to set when its value changes. */
  readonly readers: ReadonlyMap<NetId, readonly number[]>;
  /** Per memory: the dirty flags of the regions reading it asynchronously, set at each write. */
  readonly memoryReaders: readonly (readonly number[])[];
  /** Per top-level input word read by a skippable region: where its value at the last comb is kept. */
  readonly inputCopyBytes: ReadonlyMap<NetId, number>;
  /** Nonzero: evaluate every region (set after power-on, memory loads and the store-everything comb). */
  readonly forceByte: number;
  /** Per region, how many times it was evaluated (skipped regions are not counted). */
  readonly evaluationBytes: readonly number[];
  /** Per commit group, how many times the clock edge updated it. */
  readonly groupEvaluationBytes: readonly number[];
  /**
   * The fused run loop's properties: nonzero when an assertion or assumption failed, the cycles left (the
   * failing one included); it exits before that cycle's edge. Per property (flat order), the count of a
   * cover's hits since the loop last handed them over (-1: not a cover).
   */
  readonly propertyStopByte: number;
  readonly coverCountBytes: readonly number[];
  /** Registers the fused run loop writes during the comb (inPlace.ts): none with several clock edges (no fused loop runs them). */
  readonly inPlace: InPlaceRegisters;
  /**
   * The clock edges (stepPlan.ts `clockEdges`). With several, `commit(ev)` takes the mask of the edges
   * to commit, and each register, memory port and commit group is guarded by its edge's bit.
   */
  readonly edges: readonly ClockEdge[];
}

/** Cells with a result wider than 32 bits that the WebAssembly back end computes word by word. */
const WIDE_RESULT_OPS = new Set<Cell['op']>(['mux', 'concat', 'slice', 'zext', 'sext', 'and', 'or', 'xor', 'not', 'add', 'sub', 'mul', 'shl', 'lshr', 'ashr']);
/** Cells with a result of at most 32 bits that may read wider operands (only their low words matter, or word-wise equality). */
const WIDE_OPERAND_OPS = new Set<Cell['op']>(['slice', 'add', 'sub', 'mul', 'and', 'or', 'xor', 'not', 'eq', 'ne', 'ult', 'ule', 'slt', 'sle', 'redand', 'redor', 'redxor', 'shl', 'lshr', 'ashr']);

/**
 * Why the WebAssembly back end cannot run this netlist (the first obstacle), or null: a cell on a net
 * wider than 32 bits that has no wide code (every cell kind has it now; the check guards new ones).
 */
export function wasmObstacle(L: Layout): string | null {
  const net = (id: NetId) => L.flat.nets[id]!;
  const wide = (id: NetId) => net(id).width > 32;
  for (const st of L.steps) {
    if (st.kind !== 'cell') continue;
    const c = st.cell;
    const ok = wide(c.out) ? WIDE_RESULT_OPS.has(c.op) : !cellInputs(c).some(wide) || WIDE_OPERAND_OPS.has(c.op);
    if (!ok) return `'${c.op}' on the ${Math.max(net(c.out).width, ...cellInputs(c).map((i) => net(i).width))}-bit net '${net(c.out).name}'`;
  }
  return null;
}

/** The byte offsets of everything the generated code and the simulator share. */
export function wasmLayout(L: Layout): WasmLayout {
  const shadowByte = L.stateWords * 4;
  let at = shadowByte + L.stateWords * 4;
  const memoryBytes = L.flat.memories.map((m) => {
    const b = at;
    at += m.depth * Math.ceil(m.width / 32) * 4;
    return b;
  });
  const batchWords = 1 << 18;
  const batchByte = at;
  at += batchWords * 4;
  const edges = clockEdges(L.flat);
  // runVectors, the only user of in-place registers, runs one rising edge per cycle (checkVectorClocking),
  // and one comb per cycle (an asynchronous reset computed by the comb may make it run twice: asyncResets.ts).
  // A failed property leaves the loop before the edge: no register may have taken its next value yet.
  const none = edges.length > 1 || asyncResets(L).some((x) => !x.early) || (L.flat.properties?.length ?? 0) > 0;
  const inPlace: InPlaceRegisters = none ? { after: new Map(), regs: new Set(), atOwnStep: new Set(), controls: new Map() } : inPlaceRegisters(L);
  const regions = activityRegions(L, inPlace);
  const dirtyBytes = regions.map(() => {
    at += 4;
    return at - 4;
  });
  const groups = commitGroups(L, regions);
  const flag = () => {
    at += 4;
    return at - 4;
  };
  const groupDirtyBytes = groups.map(flag);
  const groupShadowedBytes = groups.map((g) => (g.shadowed ? flag() : -1));
  const readers = new Map<NetId, number[]>();
  const addReader = (id: NetId, byte: number) => (readers.get(id) ?? readers.set(id, []).get(id)!).push(byte);
  const memoryReaders: number[][] = L.flat.memories.map(() => []);
  regions.forEach((r, k) => {
    for (const id of r.inputs?.nets ?? []) addReader(id, dirtyBytes[k]!);
    for (const m of r.inputs?.memories ?? []) memoryReaders[m]!.push(dirtyBytes[k]!);
  });
  groups.forEach((g, k) => g.inputs.forEach((id) => addReader(id, groupDirtyBytes[k]!)));
  const inputCopyBytes = new Map<NetId, number>();
  for (const n of L.flat.nets) {
    if (n.kind !== 'input' || L.root[n.id] !== n.id || !readers.has(n.id)) continue;
    inputCopyBytes.set(n.id, at);
    at += 4 * L.slots[n.id]!.words;
  }
  const evaluationBytes = regions.map(flag);
  const groupEvaluationBytes = groups.map(flag);
  const forceByte = at;
  at += 4;
  const propertyStopByte = flag();
  const coverCountBytes = (L.flat.properties ?? []).map((p) => (p.kind === 'cover' ? flag() : -1));
  return { propertyStopByte, coverCountBytes, shadowByte, memoryBytes, batchByte, batchWords, regions, dirtyBytes, commitGroups: groups, groupDirtyBytes, groupShadowedBytes, readers, memoryReaders, inputCopyBytes, forceByte, evaluationBytes, groupEvaluationBytes, inPlace, edges, pages: Math.max(1, Math.ceil((at + 16) / 65536)) };
}
