// The WebAssembly generator's fused run loops: per cycle one row of inputs in, the comb, one row of outputs out, the property checks and the clock edge.
import type { NetId } from '../../ir/netlist.ts';
import { SCRATCH_LOCALS, op, type Code, type WasmFunction } from './wasmEncoding.ts';
import type { WasmClockEdge } from './wasmClockEdge.ts';
import type { WasmComb } from './wasmComb.ts';
import type { WasmValues } from './wasmValues.ts';

/** Emits the functions that drive the comb and the clock edge: `run` loops and the caller of a split comb's parts. */
export class WasmRunLoop {
  constructor(
    private readonly values: WasmValues,
    private readonly comb: WasmComb,
    private readonly edge: WasmClockEdge,
  ) {}

  /** A function calling functions first … first + count − 1 (the parts of a comb) in order. */
  callParts(name: string, first: number, count: number): WasmFunction {
    this.values.begin();
    this.comb.repeatingForLateResets(() => {
      for (let i = 0; i < count; i++) this.values.c.call(first + i);
    });
    return { name, locals: this.values.nextLocal - SCRATCH_LOCALS, code: this.values.c };
  }

  /**
   * `run(cycles, stimByte, outByte)`: per cycle, store one row of inputs, evaluate, write one row of
   * outputs, clock edge, all inside WebAssembly. Combinational values stay in locals: nothing outside
   * this function reads them, so none is stored. (Registers stay in linear memory: holding a few hundred
   * of them in loop-carried locals measured 2x slower, as the register allocator spills them anyway.)
   */
  run(inputs: readonly NetId[], outputs: readonly NetId[]): WasmFunction & { params: number } {
    return this.loop(
      inputs,
      outputs,
      () => {
        this.comb.inPlaceOn = true;
        // With resets the steps compute, no register is written in place (W.inPlace is empty): the comb may run twice.
        this.comb.repeatingForLateResets(() => this.comb.gatedCombBody());
        this.comb.inPlaceOn = false;
      },
      () => this.edge.commitBody(),
    );
  }

  /** The `run` loop of a split design: inputs to memory, the comb parts, outputs from memory, commit. */
  runCalling(inputs: readonly NetId[], outputs: readonly NetId[], firstPart: number, parts: number, commitFn: number): WasmFunction & { params: number } {
    return this.loop(
      inputs,
      outputs,
      () =>
        this.comb.repeatingForLateResets(() => {
          for (let i = 0; i < parts; i++) this.values.c.call(firstPart + i);
        }),
      () => this.values.c.call(commitFn),
    );
  }

  /** `run(cycles, stimByte, outByte)` around `comb` and `commit`: the loop, its rows of inputs and outputs, the property checks. */
  private loop(inputs: readonly NetId[], outputs: readonly NetId[], comb: () => void, commit: () => void): WasmFunction & { params: number } {
    this.values.begin(3);
    const C: Code = this.values.c;
    C.emit(op.block, 0x40, op.loop, 0x40);
    C.get(0).emit(op.i32Eqz, op.brIf, 1);
    // A row holds each port's words, least significant first.
    let inWords = 0;
    for (const id of inputs) {
      for (let k = 0; k < this.values.words(id); k++) {
        C.const(0).get(1).load(4 * inWords++);
        if (k === this.values.words(id) - 1) this.values.maskTo(this.values.w(id) - 32 * k);
        C.store(this.values.byte(id) + 4 * k);
      }
    }
    comb();
    let outWords = 0;
    for (const id of outputs) {
      for (let k = 0; k < this.values.words(id); k++) {
        C.get(2);
        this.values.pushWord(id, k);
        C.store(4 * outWords++);
      }
    }
    this.propertyChecks();
    commit();
    C.get(1).const(inWords * 4).emit(op.i32Add).set(1);
    C.get(2).const(outWords * 4).emit(op.i32Add).set(2);
    C.get(0).const(1).emit(op.i32Sub).set(0);
    C.emit(op.br, 0, op.end, op.end);
    return { name: 'run', params: 3, locals: this.values.nextLocal - 3 - SCRATCH_LOCALS, code: C };
  }

  /**
   * Before the edge (inside the run loop's `block`/`loop`): each enabled cover that holds adds one to its
   * counter; an enabled assertion or assumption that does not hold stores the cycles left and leaves the
   * loop before the edge, so that the state is the one the failure happened in.
   */
  private propertyChecks(): void {
    const C = this.values.c;
    (this.values.L.flat.properties ?? []).forEach((p, k) => {
      this.values.scope(() => {
        this.values.push(p.cond);
        if (p.kind !== 'cover') C.emit(op.i32Eqz);
        if (p.enable !== undefined) {
          this.values.push(p.enable);
          C.emit(op.i32And);
        }
        C.emit(op.if, 0x40);
        const counter = this.values.W.coverCountBytes[k]!;
        if (p.kind === 'cover') C.const(0).loadAt(counter).const(1).emit(op.i32Add).store(counter);
        else C.const(0).get(0).store(this.values.W.propertyStopByte).emit(op.br, 2);
        C.emit(op.end);
      });
    });
  }
}
