// Compiles a levelized netlist to WebAssembly: the modules (comb, combAll, commit, and a fused run loop per port list), split into parts when too large for one function.
// The generator is one class in layers, one concern each: wasmValues.ts (locals, operands, dirty flags) < wasmSteps.ts
// (the cells) < wasmClockEdge.ts (commit) < wasmComb.ts (the comb, gated by region) < WasmGen here (the run loops).
import type { NetId } from '../../ir/netlist.ts';
import type { Layout } from './layout.ts';
import type { WasmLayout } from './wasmLayout.ts';
import { Code, SCRATCH_LOCALS, WasmSizeError, checkFunctionSize, op, wasmModule, type WasmFunction } from './wasmEncoding.ts';
import type { RunActivity } from './wasmValues.ts';
import { WasmComb } from './wasmComb.ts';

export type { RunActivity };

/** The module with `comb` (skipping idle regions) and `commit`, the functions stepping and peeking at ports use. */
export function generateWasm(L: Layout, W: WasmLayout): Uint8Array<ArrayBuffer> {
  return splitIfTooLarge(
    () => {
      const g = new WasmGen(L, W);
      return wasmModule(W.pages, [checkFunctionSize(g.comb('comb', false, true)), g.commit()]);
    },
    (parts) => {
      const g = new WasmGen(L, W);
      // Functions: the parts of comb, commit, then comb calling its parts.
      const fns = [...g.combPartsSkippingIdle('comb', parts), g.commit()];
      fns.push(g.callParts('comb', 0, parts));
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
    () => wasmModule(W.pages, [new WasmGen(L, W).comb('combAll', true)]),
    (parts) => {
      const g = new WasmGen(L, W);
      return wasmModule(W.pages, [...g.combParts('combAll', true, parts), g.callParts('combAll', 0, parts)]);
    },
  );
}

/** A module with the fused `run` loop for one list of (≤ 32-bit) input and output nets. */
export function generateWasmRun(L: Layout, W: WasmLayout, inputs: readonly NetId[], outputs: readonly NetId[], activity: RunActivity = {}): Uint8Array<ArrayBuffer> {
  // Its loop commits every register each cycle: one clock edge (runVectors refuses the others).
  if (W.edges.length > 1) throw new Error(`internal: a fused run loop for ${L.flat.name}, which has ${W.edges.length} clock edges`);
  const make = () => new WasmGen(L, W, activity);
  return splitIfTooLarge(
    () => wasmModule(W.pages, [new WasmGen(L, W, { ...activity, inPlace: { sampled: outputs } }).run(inputs, outputs)]),
    (parts) => {
      // run is function 0, then the parts of comb (functions 1 … parts), then commit.
      const g = make();
      const comb = g.combPartsSkippingIdle('comb', parts);
      const commit = g.commit();
      return wasmModule(W.pages, [g.runCalling(inputs, outputs, 1, parts, parts + 1), ...comb, commit]);
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

class WasmGen extends WasmComb {
  /** A function calling functions first … first + count − 1 (the parts of a comb) in order. */
  callParts(name: string, first: number, count: number): WasmFunction {
    this.begin();
    this.repeatingForLateResets(() => {
      for (let i = 0; i < count; i++) this.c.call(first + i);
    });
    return { name, locals: this.nextLocal - SCRATCH_LOCALS, code: this.c };
  }

  /**
   * `run(cycles, stimByte, outByte)`: per cycle, store one row of inputs, evaluate, write one row of
   * outputs, clock edge, all inside WebAssembly. Combinational values stay in locals: nothing outside
   * this function reads them, so none is stored. (Registers stay in linear memory: holding a few hundred
   * of them in loop-carried locals measured 2x slower, as the register allocator spills them anyway.)
   */
  run(inputs: readonly NetId[], outputs: readonly NetId[]): { name: string; params: number; locals: number; code: Code } {
    this.begin(3);
    const C = this.c;
    C.emit(op.block, 0x40, op.loop, 0x40);
    C.get(0).emit(op.i32Eqz, op.brIf, 1);
    // A row holds each port's words, least significant first.
    let inWords = 0;
    for (const id of inputs) {
      for (let k = 0; k < this.words(id); k++) {
        C.const(0).get(1).load(4 * inWords++);
        if (k === this.words(id) - 1) this.maskTo(this.w(id) - 32 * k);
        C.store(this.byte(id) + 4 * k);
      }
    }
    this.inPlaceOn = true;
    // With resets the steps compute, no register is written in place (W.inPlace is empty): the comb may run twice.
    this.repeatingForLateResets(() => this.gatedCombBody());
    this.inPlaceOn = false;
    let outWords = 0;
    for (const id of outputs) {
      for (let k = 0; k < this.words(id); k++) {
        C.get(2);
        this.pushWord(id, k);
        C.store(4 * outWords++);
      }
    }
    this.propertyChecks();
    this.commitBody();
    C.get(1).const(inWords * 4).emit(op.i32Add).set(1);
    C.get(2).const(outWords * 4).emit(op.i32Add).set(2);
    C.get(0).const(1).emit(op.i32Sub).set(0);
    C.emit(op.br, 0, op.end, op.end);
    return { name: 'run', params: 3, locals: this.nextLocal - 3 - SCRATCH_LOCALS, code: C };
  }

  /**
   * Before the edge (inside the run loop's `block`/`loop`): each enabled cover that holds adds one to its
   * counter; an enabled assertion or assumption that does not hold stores the cycles left and leaves the
   * loop before the edge, so that the state is the one the failure happened in.
   */
  private propertyChecks(): void {
    const C = this.c;
    (this.L.flat.properties ?? []).forEach((p, k) => {
      this.scope(() => {
        this.push(p.cond);
        if (p.kind !== 'cover') C.emit(op.i32Eqz);
        if (p.enable !== undefined) {
          this.push(p.enable);
          C.emit(op.i32And);
        }
        C.emit(op.if, 0x40);
        const counter = this.W.coverCountBytes[k]!;
        if (p.kind === 'cover') C.const(0).loadAt(counter).const(1).emit(op.i32Add).store(counter);
        else C.const(0).get(0).store(this.W.propertyStopByte).emit(op.br, 2);
        C.emit(op.end);
      });
    });
  }

  /** The `run` loop of a split design: inputs to memory, the comb parts, outputs from memory, commit. */
  runCalling(inputs: readonly NetId[], outputs: readonly NetId[], firstPart: number, parts: number, commitFn: number): WasmFunction & { params: number } {
    this.begin(3);
    const C = this.c;
    C.emit(op.block, 0x40, op.loop, 0x40);
    C.get(0).emit(op.i32Eqz, op.brIf, 1);
    let inWords = 0;
    for (const id of inputs) {
      for (let k = 0; k < this.words(id); k++) {
        C.const(0).get(1).load(4 * inWords++);
        if (k === this.words(id) - 1) this.maskTo(this.w(id) - 32 * k);
        C.store(this.byte(id) + 4 * k);
      }
    }
    this.repeatingForLateResets(() => {
      for (let i = 0; i < parts; i++) C.call(firstPart + i);
    });
    let outWords = 0;
    for (const id of outputs) {
      for (let k = 0; k < this.words(id); k++) {
        C.get(2);
        this.pushWord(id, k);
        C.store(4 * outWords++);
      }
    }
    this.propertyChecks();
    C.call(commitFn);
    C.get(1).const(inWords * 4).emit(op.i32Add).set(1);
    C.get(2).const(outWords * 4).emit(op.i32Add).set(2);
    C.get(0).const(1).emit(op.i32Sub).set(0);
    C.emit(op.br, 0, op.end, op.end);
    return { name: 'run', params: 3, locals: this.nextLocal - 3 - SCRATCH_LOCALS, code: C };
  }
}
