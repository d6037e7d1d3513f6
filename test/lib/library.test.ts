// Every library block: lockstep on the three simulators plus its golden model; FIFO corner parameters on the TS simulator.
import { describe, expect, test } from 'vitest';
import { Bool, UInt, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { Fifo, clog2, lowestSet } from '../../src/hdl/lib/index.ts';
import { libraryDesigns } from '../../src/designs/catalogue/libraryCosim.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`library.test seed=${seed} (rerun with SEED=${seed})`);

describe('library blocks agree on TS, Verilator and Icarus and with their golden models', () => {
  for (const d of libraryDesigns) {
    test(d.name, async () => {
      const r = await runCosim(d, { cycles: 20_000, seed, sims: ['ts', 'verilator', 'icarus'] });
      expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
      expect(r.golden).toBeNull();
    }, 300_000);
  }
});

describe('FIFO at corner depths against a queue model', () => {
  for (const depth of [1, 2, 3, 16, 64]) {
    test(`depth ${depth}`, () => {
      const rng = createRng(seed + depth);
      const sim = compileSimulator(elaborate(Fifo, { width: 8, depth }).design);
      sim.reset(2);
      const queue: bigint[] = [];
      let sawFull = false;
      for (let c = 0; c < 5000; c++) {
        const fill = Math.floor(c / 400) % 2 === 0;
        const enq = rng.int(4) < (fill ? 3 : 1);
        const deq = rng.int(4) < (fill ? 1 : 3);
        const bits = BigInt(rng.int(256));
        sim.poke('enq_valid', enq ? 1 : 0);
        sim.poke('enq_bits', bits);
        sim.poke('deq_ready', deq ? 1 : 0);
        const where = `cycle ${c}, depth ${depth} (SEED=${seed})`;
        expect(sim.peek('count'), where).toBe(BigInt(queue.length));
        expect(sim.peek('enq_ready'), where).toBe(queue.length < depth ? 1n : 0n);
        expect(sim.peek('deq_valid'), where).toBe(queue.length > 0 ? 1n : 0n);
        if (queue.length) expect(sim.peek('deq_bits'), where).toBe(queue[0]);
        sawFull ||= queue.length === depth;
        const enqFire = enq && queue.length < depth;
        if (deq && queue.length) queue.shift();
        if (enqFire) queue.push(bits);
        sim.step();
      }
      expect(sawFull).toBe(true);
    });
  }
});

describe('the WebAssembly and JavaScript back ends agree', () => {
  for (const d of libraryDesigns) {
    test(d.name, async () => {
      const { buildStimulus } = await import('../../src/hdl/cosim/runCosim.ts');
      const { topModule } = await import('../../src/hdl/ir/netlist.ts');
      const design = d.elaborate();
      const top = topModule(design);
      const stim = buildStimulus(d, top, 5000, seed);
      const outs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output').map((n) => n.name);
      const ins = stim.inputs.map((p) => p.net.name);
      const wasm = compileSimulator(design, { backend: 'wasm' });
      const js = compileSimulator(design, { backend: 'js' });
      expect(wasm.backend).toBe('wasm');
      expect(Buffer.from(wasm.runVectors(ins, outs, stim.data, 5000).buffer).equals(Buffer.from(js.runVectors(ins, outs, stim.data, 5000).buffer))).toBe(true);
    });
  }
});

describe('lowestSet: the lowest set bit as a log-depth tree', () => {
  const LowestSetOf = defineModule(
    'LowestSetOf',
    (p: { n: number }) => ({ bits: input(UInt(p.n)), index: output(UInt(clog2(p.n))), any: output(Bool) }),
    (m, io, p) => {
      const r = lowestSet(Array.from({ length: p.n }, (_, i) => io.bits.bit(i)));
      io.index.set(r.index);
      io.any.set(r.any);
    },
  );
  for (const n of [1, 2, 3, 5, 8, 13, 32, 33]) {
    test(`${n} bits: every input (or 3,000 random ones with one to three bits set), index 0 when none is set (SEED=${seed})`, () => {
      const sim = compileSimulator(elaborate(LowestSetOf, { n }).design);
      const rng = createRng(seed ^ n);
      const inputs = n <= 8 ? Array.from({ length: 2 ** n }, (_, v) => BigInt(v)) : Array.from({ length: 3000 }, () => Array.from({ length: 1 + rng.int(3) }, () => 1n << BigInt(rng.int(n))).reduce((a, b) => a | b, 0n));
      for (const v of [0n, ...inputs]) {
        sim.poke('bits', v);
        const lowest = v === 0n ? 0 : v.toString(2).length - v.toString(2).lastIndexOf('1') - 1;
        expect(sim.peek('index'), `n ${n}, bits ${v.toString(2)}`).toBe(BigInt(lowest));
        expect(sim.peek('any'), `n ${n}, bits ${v.toString(2)}`).toBe(v === 0n ? 0n : 1n);
      }
    });
  }
});
