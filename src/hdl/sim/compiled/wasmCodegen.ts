// Compiles a levelized netlist to WebAssembly: the modules (comb, combAll, commit, and a fused run loop per port list), split into parts when too large for one function.
// The generator is parts sharing one WasmValues (the function being built: locals, operands, dirty flags): wasmSteps.ts
// (the cells), wasmClockEdge.ts (commit), wasmComb.ts (the comb, gated by region) and wasmRunLoop.ts (the run loops).
import type { NetId } from '../../ir/netlist.ts';
import type { Layout } from './layout.ts';
import type { WasmLayout } from './wasmLayout.ts';
import { WasmSizeError, checkFunctionSize, wasmModule } from './wasmEncoding.ts';
import { WasmValues, type RunActivity } from './wasmValues.ts';
import { WasmSteps } from './wasmSteps.ts';
import { WasmClockEdge } from './wasmClockEdge.ts';
import { WasmComb } from './wasmComb.ts';
import { WasmRunLoop } from './wasmRunLoop.ts';

export type { RunActivity };

const COUNTING: RunActivity = { counting: true };

/**
 * The module with `comb` (skipping idle regions) and `commit`, the functions stepping and peeking at ports
 * use. They count the evaluations of regions and commit groups: a fused loop's first cycles run on them to
 * measure its plan (compiledSimulator.ts, `wasmLoop`).
 */
export function generateWasm(L: Layout, W: WasmLayout): Uint8Array<ArrayBuffer> {
  return splitIfTooLarge(
    () => {
      const g = wasmGenerator(L, W, COUNTING);
      return wasmModule(W.pages, [checkFunctionSize(g.comb.comb('comb', false, true)), g.edge.commit()]);
    },
    (parts) => {
      const g = wasmGenerator(L, W, COUNTING);
      // Functions: the parts of comb, commit, then comb calling its parts.
      const fns = [...g.comb.combPartsSkippingIdle('comb', parts), g.edge.commit()];
      fns.push(g.loop.callParts('comb', 0, parts));
      return wasmModule(W.pages, fns);
    },
  );
}

/**
 * The module with `combAll`, which computes and stores every net: for peeks of internal nets and
 * waveforms only, so generated when first needed (it is the largest function of a large design).
 */
export function generateWasmCombAll(L: Layout, W: WasmLayout): Uint8Array<ArrayBuffer> {
  return splitIfTooLarge(
    () => wasmModule(W.pages, [wasmGenerator(L, W).comb.comb('combAll', true)]),
    (parts) => {
      const g = wasmGenerator(L, W);
      return wasmModule(W.pages, [...g.comb.combParts('combAll', true, parts), g.loop.callParts('combAll', 0, parts)]);
    },
  );
}

/** A module with the fused `run` loop for one list of (≤ 32-bit) input and output nets. */
export function generateWasmRun(L: Layout, W: WasmLayout, inputs: readonly NetId[], outputs: readonly NetId[], activity: RunActivity = {}): Uint8Array<ArrayBuffer> {
  // Its loop commits every register each cycle: one clock edge (runVectors refuses the others).
  if (W.edges.length > 1) throw new Error(`internal: a fused run loop for ${L.flat.name}, which has ${W.edges.length} clock edges`);
  return splitIfTooLarge(
    () => wasmModule(W.pages, [wasmGenerator(L, W, { ...activity, inPlace: { sampled: outputs } }).loop.run(inputs, outputs)]),
    (parts) => {
      // run is function 0, then the parts of comb (functions 1 … parts), then commit.
      const g = wasmGenerator(L, W, activity);
      const comb = g.comb.combPartsSkippingIdle('comb', parts);
      const commit = g.edge.commit();
      return wasmModule(W.pages, [g.loop.runCalling(inputs, outputs, 1, parts, parts + 1), ...comb, commit]);
    },
  );
}

/**
 * One function per phase is fastest, but an engine limits a function's size: a design too large for
 * that evaluates its combinational steps in `parts` functions, values crossing parts through memory.
 */
function splitIfTooLarge(whole: () => Uint8Array<ArrayBuffer>, split: (parts: number) => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  let parts: number;
  try {
    return whole();
  } catch (e) {
    if (!(e instanceof WasmSizeError)) throw e;
    parts = 2 ** Math.ceil(Math.log2(1.5 * e.over));
  }
  for (; ; parts *= 2) {
    try {
      return split(parts);
    } catch (e) {
      // Only the parts shrink as their number grows.
      if (!(e instanceof WasmSizeError) || !/_p\d+$/.test(e.fn) || parts >= 1024) throw e;
    }
  }
}

/** The generator's parts around one WasmValues: `comb`, `edge` (commit) and `loop` (run loops, the callers of parts). */
function wasmGenerator(L: Layout, W: WasmLayout, activity: RunActivity = {}): { comb: WasmComb; edge: WasmClockEdge; loop: WasmRunLoop } {
  const values = new WasmValues(L, W, activity);
  const steps = new WasmSteps(values);
  const edge = new WasmClockEdge(values, steps);
  const comb = new WasmComb(values, steps, edge);
  return { comb, edge, loop: new WasmRunLoop(values, comb, edge) };
}
