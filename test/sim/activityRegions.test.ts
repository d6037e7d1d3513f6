// The WebAssembly back end skips instance regions whose inputs did not change: it must still agree with
// the JavaScript back end (which evaluates everything) when inputs are held, memories change under a
// held address, memories are loaded from the testbench, internal nets are peeked and the design powers on again.
import { describe, expect, test } from 'vitest';
import { Bool, UInt, cat, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { layoutNetlist } from '../../src/hdl/sim/compiled/layout.ts';
import { generateWasm } from '../../src/hdl/sim/compiled/wasmCodegen.ts';
import { wasmLayout } from '../../src/hdl/sim/compiled/wasmLayout.ts';
import { wasmLimits } from '../../src/hdl/sim/compiled/wasmEncoding.ts';
import { MIN_REGION_STEPS } from '../../src/hdl/sim/compiled/activityRegions.ts';
import { PROFILE_CYCLES, planActivity } from '../../src/hdl/sim/compiled/activityPlan.ts';
import { flattenDesign } from '../../src/hdl/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

/** A register file read asynchronously at a held address, and a long chain of logic on what it reads. */
const Worker = defineModule(
  'Worker',
  () => ({ raddr: input(UInt(3)), we: input(Bool), waddr: input(UInt(3)), wdata: input(UInt(32)), k: input(UInt(32)), out: output(UInt(32)) }),
  (m, io) => {
    const rf = m.memory(UInt(32), 8, { name: 'rf' });
    m.when(io.we, () => rf.write(io.waddr, io.wdata));
    let v = rf.readAsync(io.raddr);
    for (let i = 0; i < 12; i++) v = v.mul(io.k.or(1)).xor(v.bits(31, 7).zext(32)).add(i + 1);
    const q = m.reg(UInt(32), { reset: 0 });
    q.set(v);
    io.out.set(q.xor(v));
  },
);

/** Logic of a wide input alone (no state): a guard of 16 words, costly when the input changes every cycle. */
const Mixer = defineModule('Mixer', () => ({ k: input(UInt(512)), out: output(UInt(32)) }), (m, io) => {
  let v = io.k.bits(31, 0);
  for (let w = 1; w < 16; w++) v = v.xor(io.k.bits(32 * w + 31, 32 * w));
  for (let i = 0; i < 12; i++) v = v.mul(v.or(1)).xor(v.bits(31, 9).zext(32)).add(i + 7);
  io.out.set(v);
});

const Top = defineModule(
  'Top',
  () => ({
    raddr: input(UInt(3)),
    we: input(UInt(3)),
    waddr: input(UInt(3)),
    wdata: input(UInt(32)),
    k0: input(UInt(32)),
    k1: input(UInt(32)),
    k2: input(UInt(32)),
    out0: output(UInt(32)),
    out1: output(UInt(32)),
    out2: output(UInt(32)),
    mixed: output(UInt(32)),
  }),
  (m, io) => {
    const ks = [io.k0, io.k1, io.k2];
    const outs = [io.out0, io.out1, io.out2];
    for (let i = 0; i < 3; i++) {
      const w = m.instance(Worker, undefined, { name: `w${i}` });
      w.io.raddr.set(io.raddr);
      w.io.we.set(io.we.bits(i, i).asBool());
      w.io.waddr.set(io.waddr);
      w.io.wdata.set(io.wdata);
      w.io.k.set(ks[i]!);
      outs[i]!.set(w.io.out);
    }
    const mix = m.instance(Mixer, undefined, { name: 'mix' });
    mix.io.k.set(cat(...Array.from({ length: 16 }, (_, w) => ks[w % 3]!.xor(w))));
    io.mixed.set(mix.io.out);
  },
);

const design = elaborate(Top, undefined).design;
const seed = seedFromEnv();
console.log(`activityRegions.test seed=${seed} (rerun with SEED=${seed})`);
const inputs = ['rst_n', 'raddr', 'we', 'waddr', 'wdata', 'k0', 'k1', 'k2'];
const outputs = ['out0', 'out1', 'out2', 'mixed'];

/** Stimulus that holds most inputs for long stretches, so that whole workers sit idle. */
function stimulus(seed: number, cycles: number): number[][] {
  const rng = createRng(seed);
  let row = [0, 0, 0, 0, 0, 1, 2, 3];
  const rows: number[][] = [];
  for (let c = 0; c < cycles; c++) {
    row = [...row];
    row[0] = c < 2 ? 0 : 1;
    if (rng.int(8) === 0) row[1] = rng.int(8);
    // Writes (to any worker) often hit the address being read while nothing else changes.
    row[2] = rng.int(4) === 0 ? 1 << rng.int(3) : 0;
    row[3] = rng.int(2) ? row[1]! : rng.int(8);
    row[4] = rng.u32();
    if (rng.int(16) === 0) row[5 + rng.int(3)] = rng.u32();
    rows.push(row);
  }
  return rows;
}

function outputsOf(sim: Simulator): bigint[] {
  return outputs.map((o) => sim.peek(o));
}

describe('activity regions', () => {
  test('each worker is one contiguous region long enough to be skipped', () => {
    const L = layoutNetlist(flattenDesign(design));
    const regions = wasmLayout(L).regions;
    for (const w of ['w0', 'w1', 'w2']) {
      const own = regions.filter((r) => r.instance === w);
      expect(own.length, w).toBe(1);
      expect(own[0]!.end - own[0]!.start).toBeGreaterThanOrEqual(MIN_REGION_STEPS);
      expect(own[0]!.inputs?.memories.length, `${w} reads its register file asynchronously`).toBe(1);
    }
  });

  test('stepping with held inputs, writes under a held address, memory loads, peeks and power-on agree with the JavaScript back end', () => {
    const rows = stimulus(seed, 3000);
    const wasm = compileSimulator(design, { backend: 'wasm' });
    const js = compileSimulator(design, { backend: 'js' });
    const rng = createRng(seed + 1);
    rows.forEach((row, c) => {
      for (const sim of [wasm, js]) row.forEach((v, k) => sim.poke(inputs[k]!, v));
      expect(outputsOf(wasm), `cycle ${c} (SEED=${seed})`).toEqual(outputsOf(js));
      const event = rng.int(64);
      if (event === 0) {
        // Behind the comb's back: a register file loaded by the testbench.
        const words = Array.from({ length: 8 }, () => rng.u32());
        const target = `w${rng.int(3)}.rf`;
        for (const sim of [wasm, js]) sim.loadMemory(target, words);
      } else if (event === 1) {
        // The store-everything comb (an internal net), then stepping on.
        expect(wasm.peek('w1.q'), `cycle ${c} (SEED=${seed})`).toBe(js.peek('w1.q'));
      } else if (event === 2 && c > 1500) {
        for (const sim of [wasm, js]) sim.powerOn();
      }
      for (const sim of [wasm, js]) sim.step();
    });
  });

  test('the fused run loop agrees with the JavaScript back end over batches', () => {
    const rows = stimulus(seed, 5000);
    const stim = new Uint32Array(rows.flat());
    const wasm = compileSimulator(design, { backend: 'wasm' });
    const js = compileSimulator(design, { backend: 'js' });
    // Two batches with a memory load between them.
    const half = 2500 * inputs.length;
    const a = wasm.runVectors(inputs, outputs, stim.subarray(0, half), 2500);
    const b = js.runVectors(inputs, outputs, stim.subarray(0, half), 2500);
    expect(Array.from(a), `SEED=${seed}`).toEqual(Array.from(b));
    for (const sim of [wasm, js]) sim.loadMemory('w2.rf', [1, 2, 3, 4, 5, 6, 7, 8]);
    const c = wasm.runVectors(inputs, outputs, stim.subarray(half), 2500);
    const d = js.runVectors(inputs, outputs, stim.subarray(half), 2500);
    expect(Array.from(c), `SEED=${seed}`).toEqual(Array.from(d));
  });
});

describe('regions busy every cycle', () => {
  test('lose their guard when it costs more than skipping saves; with nothing left to skip, the loop has no flags', () => {
    const L = layoutNetlist(flattenDesign(design));
    const W = wasmLayout(L);
    const regions = W.regions;
    const groups = W.commitGroups;
    const workers = new Set(regions.flatMap((r, k) => (/^(w\d|mix)$/.test(r.instance) ? [k] : [])));
    expect(workers.size).toBe(4);
    const guarded = new Set(regions.flatMap((r, k) => (r.inputs ? [k] : [])));
    expect([...workers].every((k) => guarded.has(k))).toBe(true);
    // Busy every cycle: a flag only costs, and nothing is skipped.
    const busy = planActivity(L, regions, groups, regions.map(() => 1000), groups.map(() => 1000), 1000);
    expect(busy.regions).toEqual(guarded);
    expect(busy.groups.size).toBe(groups.length);
    expect(busy.ungated).toBe(true);
    // Idle: every flag kept.
    const idle = planActivity(L, regions, groups, regions.map(() => 0), groups.map(() => 0), 1000);
    expect(idle.regions.size).toBe(0);
    expect(idle.ungated).toBe(false);
    // The workers busy, the rest idle: only the workers lose their guards.
    const some = planActivity(L, regions, groups, regions.map((_, k) => (workers.has(k) ? 1000 : 0)), groups.map(() => 0), 1000);
    for (const k of workers) expect(some.regions.has(k)).toBe(true);
  });

  test('after the loop is recompiled without their guards, batches and stepping still agree with the JavaScript back end', () => {
    const rng = createRng(seed);
    const cycles = 10_000;
    // Every worker's multiplier changes every cycle: all busy during the profile.
    const rows = stimulus(seed, cycles).map((r) => [...r.slice(0, 5), rng.u32(), rng.u32(), rng.u32()]);
    const wasm = compileSimulator(design, { backend: 'wasm' });
    const js = compileSimulator(design, { backend: 'js' });
    const stim = new Uint32Array(rows.flat());
    expect(Array.from(wasm.runVectors(inputs, outputs, stim, cycles)), `SEED=${seed}`).toEqual(Array.from(js.runVectors(inputs, outputs, stim, cycles)));
    // The guarded comb after a loop that left its copies stale: the inputs of the last profiled cycle
    // equal the mixer's stale copy, yet its stored output is from the last cycle. Then held inputs.
    const held = rows[cycles - 1]!;
    for (let c = 0; c < 200; c++) {
      const row = c === 0 ? rows[PROFILE_CYCLES - 1]! : c % 50 === 0 ? rows[c]! : held;
      for (const sim of [wasm, js]) row.forEach((v, k) => sim.poke(inputs[k]!, v));
      expect(outputsOf(wasm), `cycle ${c} (SEED=${seed})`).toEqual(outputsOf(js));
      for (const sim of [wasm, js]) sim.step();
    }
  });
});

describe('activity regions in a design split over several functions', () => {
  test('comb parts of whole regions still skip idle workers and agree with the JavaScript back end', () => {
    const saved = wasmLimits.functionBytes;
    // Small enough that comb cannot be one function, large enough for one worker's region.
    wasmLimits.functionBytes = 2000;
    try {
      const L = layoutNetlist(flattenDesign(design));
      const W = wasmLayout(L);
      const names = WebAssembly.Module.exports(new WebAssembly.Module(generateWasm(L, W))).map((e) => e.name);
      const parts = names.filter((n) => /^comb_p\d+$/.test(n)).length;
      expect(parts, names.join(', ')).toBeGreaterThan(1);
      expect(parts, 'split at region boundaries, not into runs of steps').toBeLessThanOrEqual(W.regions.length);
      const rows = stimulus(seed, 3000);
      const stim = new Uint32Array(rows.flat());
      const wasm = compileSimulator(design, { backend: 'wasm' });
      const js = compileSimulator(design, { backend: 'js' });
      expect(Array.from(wasm.runVectors(inputs, outputs, stim, 3000)), `SEED=${seed}`).toEqual(Array.from(js.runVectors(inputs, outputs, stim, 3000)));
    } finally {
      wasmLimits.functionBytes = saved;
    }
  });
});
