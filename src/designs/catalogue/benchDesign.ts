// The benchmark design: four producers, a round-robin arbiter, a 64-entry FIFO and a multiply-accumulate pipeline.
import { Bool, Decoupled, UInt, Vec, cat, defineModule, elaborate, input, mux, output } from '../../hdl/index.ts';
import type { CosimDesign } from '../../hdl/cosim/index.ts';
import { Fifo } from '../../hdl/lib/index.ts';
import { RoundRobinArbiter } from '../../hdl/lib/index.ts';

export interface BenchParams {
  readonly lanes: number;
  readonly stages: number;
}

/**
 * A multiply-accumulate pipeline: every lane multiplies two 16-bit halves once, then each stage mixes it
 * with its neighbour (add, rotate, xor); `valid` travels with the data. Kept to 16x16 multipliers so that
 * Yosys synthesizes it in seconds.
 */
export const MacPipeline = defineModule(
  'MacPipeline',
  (p: BenchParams) => ({
    in: input(Decoupled(UInt(32))),
    sums: output(Vec(p.lanes, UInt(32))),
    busy: output(Bool),
  }),
  (m, io, p) => {
    io.in.ready.set(true);
    let valid = m.regNext(io.in.fire, { name: 'valid_s0' });
    let lanes = Array.from({ length: p.lanes }, (_, l) => {
      const salted = io.in.bits.xor((0x9e3779b9 ^ Math.imul(l, 0x85ebca6b)) >>> 0);
      const product = salted.bits(31, 16).mulw(salted.bits(15, 0).or(1));
      return m.regNext(product, { name: `lane${l}_s0` });
    });
    for (let s = 1; s <= p.stages; s++) {
      const next = lanes.map((x, l) => {
        const k = ((s * 7 + l * 3) % 31) + 1;
        const rotated = cat(x.bits(31 - k, 0), x.bits(31, 32 - k));
        const mixed = x.add(lanes[(l + 1) % p.lanes]!).xor(rotated);
        return m.regNext(mux(valid, mixed, x), { name: `lane${l}_s${s}` });
      });
      valid = m.regNext(valid, { name: `valid_s${s}` });
      lanes = next;
    }
    lanes.forEach((x, l) => {
      const acc = m.reg(UInt(32), { reset: 0, name: `acc${l}` });
      m.when(valid, () => acc.set(acc.add(x)));
      io.sums.at(l).set(acc);
    });
    io.busy.set(valid);
  },
);

export const BenchTop = defineModule(
  'BenchTop',
  (p: BenchParams) => ({
    producers: input(Vec(4, Decoupled(UInt(32)))),
    sums: output(Vec(p.lanes, UInt(32))),
    level: output(UInt(7)),
    busy: output(Bool),
  }),
  (m, io, p) => {
    const arbiter = m.instance(RoundRobinArbiter, { n: 4, width: 32 });
    const fifo = m.instance(Fifo, { width: 32, depth: 64 });
    const mac = m.instance(MacPipeline, p);
    m.connect(arbiter.io.in, io.producers);
    m.connect(fifo.io.enq, arbiter.io.out);
    m.connect(mac.io.in, fifo.io.deq);
    m.connect(io.sums, mac.io.sums);
    io.level.set(fifo.io.count);
    io.busy.set(mac.io.busy);
  },
);

export const benchParams: BenchParams = { lanes: 16, stages: 12 };

export const benchDesign: CosimDesign = {
  name: 'bench',
  description: 'benchmark: 4 producers -> round-robin arbiter -> 64-entry FIFO -> 16-lane 12-stage multiply-mix pipeline',
  elaborate: () => elaborate(BenchTop, benchParams).design,
  stimulus: (cycle, rng) => {
    const s: Record<string, bigint> = { rst_n: cycle < 2 ? 0n : 1n };
    for (let i = 0; i < 4; i++) {
      s[`producers_${i}_valid`] = BigInt(rng.int(4) !== 0);
      s[`producers_${i}_bits`] = BigInt(rng.u32());
    }
    return s;
  },
};
