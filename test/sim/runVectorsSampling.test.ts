// runVectors samples any net by name, not only ports: registers no port shows, next values, and wires no port reads, on every engine.
import { describe, expect, test } from 'vitest';
import { Bool, UInt, defineModule, elaborate, input, lit, mux, output } from '../../src/hdl/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';

// The reproduction from issue 39: `st` is seen by no output port, so the fused WebAssembly loop wrote
// it in place during the comb and runVectors sampled its next value.
const TopModule = defineModule('TopModule', () => ({ x: input(Bool), z: output(Bool) }), (m, io) => {
  const st = m.reg(UInt(2));
  const one = st.eq(1);
  st.set(mux(one, lit(2, 2), mux(io.x, lit(1, 2), st)));
  io.z.set(one);
  // Read by nothing: computed only by the store-everything comb.
  const two = m.wire(Bool);
  two.set(st.eq(2));
});

const design = elaborate(TopModule, undefined).design;
const xs = [0, 1, 0, 0, 1, 1, 0, 1];

/** Step by step: each named net before every clock edge. */
function stepByStep(sim: Simulator, names: readonly string[]): number[][] {
  sim.powerOn();
  return xs.map((x) => {
    sim.poke('x', x);
    const row = names.map((n) => Number(sim.peek(n)));
    sim.step();
    return row;
  });
}

function vectors(sim: Simulator, names: readonly string[]): number[][] {
  sim.powerOn();
  const out = sim.runVectors(['x'], names, Uint32Array.from(xs), xs.length);
  return xs.map((_, c) => names.map((_, i) => out[c * names.length + i]!));
}

describe('runVectors samples internal nets', () => {
  for (const backend of ['js', 'wasm'] as const) {
    test(`${backend}: an internal register is sampled before the edge, as step and peek see it`, () => {
      const sim = compileSimulator(design, { backend });
      expect(vectors(sim, ['st']).map((r) => r[0])).toEqual([0, 0, 1, 2, 2, 1, 2, 2]);
      expect(vectors(sim, ['st'])).toEqual(stepByStep(sim, ['st']));
    });

    test(`${backend}: the register's next value alone, and with the register`, () => {
      const sim = compileSimulator(design, { backend });
      // The outer mux: the elaborator names it after the register it drives.
      const next = 'st_mux_1';
      // Alone: no port and no sample shows st, so the fused loop may write st in place; its next value must still be stored.
      expect(vectors(sim, [next]).map((r) => r[0])).toEqual([0, 1, 2, 2, 1, 2, 2, 1]);
      expect(vectors(sim, [next, 'st'])).toEqual(stepByStep(sim, [next, 'st']));
    });

    test(`${backend}: a wire nothing reads is computed for the sample`, () => {
      const sim = compileSimulator(design, { backend });
      expect(vectors(sim, ['two', 'st', 'z'])).toEqual(stepByStep(sim, ['two', 'st', 'z']));
      expect(vectors(sim, ['two']).map((r) => r[0])).toEqual([0, 0, 0, 1, 1, 0, 1, 1]);
    });
  }
});
