// The WebAssembly back end skips activity regions and commit groups whose inputs did not change (dirty
// flags set by whoever changes a value): on real designs, every register must still equal the
// JavaScript back end's (which evaluates everything) after every cycle of seeded random stimulus.
import { describe, expect, test } from 'vitest';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { flattenDesign } from '../../src/hdl/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';

/** The first register (after any cycle) that differs between the two simulators, or null. */
function firstDifference(a: Simulator, b: Simulator, regs: readonly string[], cycle: number): string | null {
  for (const r of regs) {
    const x = a.peek(r);
    const y = b.peek(r);
    if (x !== y) return `after cycle ${cycle}: ${r} is 0x${x.toString(16)} on wasm, 0x${y.toString(16)} on js`;
  }
  return null;
}

// Designs with wide datapaths (fmul's 48-bit product, the RT core's 128-bit vectors), memories read
// asynchronously and synchronously, and long idle stretches.
const CASES: readonly [name: string, cycles: number][] = [
  ['fifo', 3000],
  ['fmul', 2000],
  ['fdiv', 1500],
  ['bench', 2000],
  ['rtcore', 4000],
  ['main_memory', 2000],
  ['memory_controller', 3000],
  ['ray_box4', 1500],
  ['ic_core', 1500],
];

describe('WebAssembly with activity flags against JavaScript, every register every cycle', () => {
  for (const [name, cycles] of CASES) {
    test(name, async () => {
      const seed = seedFromEnv();
      console.log(`${name}: seed ${seed} (SEED=${seed} reruns it)`);
      const design = await findDesign(name);
      const d = design.elaborate();
      const wasm = await compileSimulator(d, { backend: 'wasm' });
      const js = await compileSimulator(d, { backend: 'js' });
      const flat = flattenDesign(d);
      const regs = flat.regs.map((r) => flat.nets[r.q]!.name);
      const rng = createRng(seed);
      let diff: string | null = null;
      for (let c = 0; c < cycles && diff === null; c++) {
        const inputs = design.stimulus(c, rng);
        for (const [port, v] of Object.entries(inputs)) {
          wasm.poke(port, v);
          js.poke(port, v);
        }
        // Outputs too: a testbench peeks ports between edges.
        for (const p of wasm.ports) if (p.direction === 'output') expect(wasm.peek(p.name), `${p.name} at cycle ${c}`).toBe(js.peek(p.name));
        wasm.step();
        js.step();
        diff = firstDifference(wasm, js, regs, c);
      }
      expect(diff).toBeNull();
    }, 300_000);
  }
});

describe('the fused run loop (gated, partly gated, or without flags once the design proves busy) against JavaScript', () => {
  // Past PROFILE_CYCLES the loop is recompiled for the activity it measured; then single steps (gated comb and commit) follow.
  for (const name of ['bench', 'rtcore', 'ic_core', 'memory_controller']) {
    test(name, async () => {
      const seed = seedFromEnv();
      console.log(`${name}: seed ${seed} (SEED=${seed} reruns it)`);
      const design = await findDesign(name);
      const d = design.elaborate();
      const sims = [await compileSimulator(d, { backend: 'wasm' }), await compileSimulator(d, { backend: 'js' })] as const;
      const flat = flattenDesign(d);
      const regs = flat.regs.map((r) => flat.nets[r.q]!.name);
      const narrow = (dir: 'input' | 'output') => sims[0].ports.filter((p) => p.direction === dir && p.width <= 32 && p.name !== 'clk').map((p) => p.name);
      const inputs = narrow('input');
      const outputs = narrow('output');
      const rng = createRng(seed);
      const batches = 5;
      const cycles = 2500;
      for (let b = 0; b < batches; b++) {
        const rows = new Uint32Array(cycles * inputs.length);
        for (let c = 0; c < cycles; c++) {
          const values = design.stimulus(b * cycles + c, rng);
          inputs.forEach((p, i) => (rows[c * inputs.length + i] = Number(values[p] ?? 0n)));
          // Wide inputs are held at the batch's first value.
          if (c === 0) for (const [p, v] of Object.entries(values)) if (!inputs.includes(p)) for (const s of sims) s.poke(p, v);
        }
        const [x, y] = sims.map((s) => s.runVectors(inputs, outputs, rows, cycles));
        expect(Buffer.from(x!.buffer).equals(Buffer.from(y!.buffer)), `output rows of batch ${b}`).toBe(true);
        expect(firstDifference(sims[0], sims[1], regs, (b + 1) * cycles)).toBeNull();
        // A few single steps between batches.
        for (let c = 0; c < 20; c++) {
          const values = design.stimulus(c, rng);
          for (const s of sims) for (const [p, v] of Object.entries(values)) s.poke(p, v);
          for (const s of sims) s.step();
          expect(firstDifference(sims[0], sims[1], regs, c)).toBeNull();
        }
      }
    }, 300_000);
  }
});
