// The library blocks as co-simulation designs: representative parameters, corner-biased stimulus, golden models.
import { elaborate, type Design } from '../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../hdl/cosim/index.ts';
import type { Rng } from '../../util/seededRandom.ts';
import { Counter, Decoder, Fifo, OneHotEncoder, PriorityEncoder, RoundRobinArbiter, ShiftRegister, SkidBuffer } from '../../hdl/lib/index.ts';

const b = (x: boolean | number) => (x ? 1n : 0n);

/** Reset for the first two cycles, then rarely. */
const resetFor = (cycle: number, rng: Rng) => (cycle < 2 || rng.int(2000) === 0 ? 0n : 1n);

/** Phases of a few dozen cycles that favour filling, draining or mixing, to reach full and empty often. */
function phase(cycle: number): 'fill' | 'drain' | 'mix' {
  const k = Math.floor(cycle / 37) % 3;
  return k === 0 ? 'fill' : k === 1 ? 'drain' : 'mix';
}

/** A checker for anything that passes words in order: every word taken must leave, in order, unchanged. */
function streamGolden(inPrefix: string, outPrefix: string, capacity: number, latencyFree: boolean): () => GoldenModel {
  return () => {
    let queue: bigint[] = [];
    return {
      check(_c, ins, outs) {
        const outValid = outs[`${outPrefix}_valid`] === 1n;
        if (outValid && queue.length === 0) return `${outPrefix}_valid is 1 but nothing was accepted`;
        if (outValid && outs[`${outPrefix}_bits`] !== queue[0]) return `${outPrefix}_bits is ${outs[`${outPrefix}_bits`]} but the oldest word is ${queue[0]}`;
        if (latencyFree && !outValid && queue.length > 0) return `${outPrefix}_valid is 0 with ${queue.length} word(s) stored`;
        if (outs[`${inPrefix}_ready`] === 1n && queue.length >= capacity && latencyFree) return `${inPrefix}_ready is 1 while ${capacity} words are stored`;
        // A reset takes effect at this cycle's clock edge, after the outputs above were sampled.
        if (ins.rst_n === 0n) queue = [];
        else {
          if (outValid && ins[`${outPrefix}_ready`] === 1n) queue.shift();
          if (ins[`${inPrefix}_valid`] === 1n && outs[`${inPrefix}_ready`] === 1n) queue.push(ins[`${inPrefix}_bits`]!);
        }
        return null;
      },
    };
  };
}

export const fifoParams = { width: 8, depth: 16 };

export const libraryDesigns: CosimDesign[] = [
  {
    name: 'fifo',
    description: `synchronous FIFO, first-word fall-through (width ${fifoParams.width}, depth ${fifoParams.depth})`,
    elaborate: (): Design => elaborate(Fifo, fifoParams).design,
    stimulus: (c, rng) => {
      const ph = phase(c);
      return {
        rst_n: resetFor(c, rng),
        enq_valid: b(rng.int(8) < (ph === 'fill' ? 7 : ph === 'drain' ? 1 : 4)),
        enq_bits: rng.bits(8),
        deq_ready: b(rng.int(8) < (ph === 'drain' ? 7 : ph === 'fill' ? 1 : 4)),
      };
    },
    golden: () => {
      const stream = streamGolden('enq', 'deq', fifoParams.depth, true)();
      let count = 0;
      return {
        check(c, ins, outs) {
          if (outs.count !== BigInt(count)) return `count is ${outs.count}, expected ${count}`;
          if (outs.full !== b(count === fifoParams.depth) || outs.empty !== b(count === 0)) return `full/empty (${outs.full}/${outs.empty}) disagree with count ${count}`;
          const msg = stream.check(c, ins, outs);
          count = ins.rst_n === 0n ? 0 : count + Number((ins.enq_valid! & outs.enq_ready!) - (outs.deq_valid! & ins.deq_ready!));
          return msg;
        },
      };
    },
  },
  {
    name: 'skid',
    description: 'two-entry skid buffer (width 8): registered ready and valid',
    elaborate: () => elaborate(SkidBuffer, { width: 8 }).design,
    stimulus: (c, rng) => ({ rst_n: resetFor(c, rng), enq_valid: b(rng.int(4) !== 0), enq_bits: rng.bits(8), deq_ready: b(rng.int(3) !== 0) }),
    golden: streamGolden('enq', 'deq', 2, false),
  },
  {
    name: 'arbiter',
    description: 'round-robin arbiter, 4 requesters of 8 bits',
    elaborate: () => elaborate(RoundRobinArbiter, { n: 4, width: 8 }).design,
    stimulus: (c, rng) => {
      const s: Record<string, bigint> = { rst_n: resetFor(c, rng), out_ready: b(rng.int(4) !== 0) };
      for (let i = 0; i < 4; i++) {
        s[`in_${i}_valid`] = b(rng.int(3) !== 0);
        s[`in_${i}_bits`] = rng.bits(8);
      }
      return s;
    },
    golden: () => {
      let last = 3;
      return {
        check(_c, ins, outs) {
          // Outputs during a reset cycle still show the state before it (after power-on: not yet reset).
          if (ins.rst_n === 0n) {
            last = 3;
            return null;
          }
          const req = [0, 1, 2, 3].filter((i) => ins[`in_${i}_valid`] === 1n);
          if (outs.out_valid !== b(req.length > 0)) return `out_valid ${outs.out_valid} with ${req.length} requests`;
          if (!req.length) return null;
          const grant = [1, 2, 3, 4].map((k) => (last + k) % 4).find((i) => req.includes(i))!;
          if (outs.chosen !== BigInt(grant)) return `chose ${outs.chosen}, round robin after ${last} gives ${grant}`;
          if (outs.out_bits !== ins[`in_${grant}_bits`]) return `out_bits is not requester ${grant}'s bits`;
          for (let i = 0; i < 4; i++) if (outs[`in_${i}_ready`] !== b(i === grant && ins.out_ready === 1n)) return `in_${i}_ready is wrong`;
          if (ins.out_ready === 1n) last = grant;
          return null;
        },
      };
    },
  },
  {
    name: 'counter',
    description: 'up counter wrapping at 9, with clear',
    elaborate: () => elaborate(Counter, { max: 9 }).design,
    stimulus: (c, rng) => ({ rst_n: resetFor(c, rng), en: b(rng.int(4) !== 0), clear: b(rng.int(40) === 0) }),
    golden: () => {
      let v = 0;
      return {
        check(_c, ins, outs) {
          if (outs.value !== BigInt(v)) return `value ${outs.value}, expected ${v}`;
          if (outs.wrap !== b(ins.en === 1n && ins.clear === 0n && v === 9)) return `wrap ${outs.wrap} at value ${v}`;
          v = ins.rst_n === 0n || ins.clear === 1n ? 0 : ins.en === 1n ? (v === 9 ? 0 : v + 1) : v;
          return null;
        },
      };
    },
  },
  {
    name: 'shiftreg',
    description: 'shift register, 16 bits by 5 stages, with enable',
    elaborate: () => elaborate(ShiftRegister, { width: 16, length: 5 }).design,
    stimulus: (c, rng) => ({ rst_n: resetFor(c, rng), d: rng.bits(16), en: b(rng.int(5) !== 0) }),
    golden: () => {
      let stages = [0n, 0n, 0n, 0n, 0n];
      return {
        check(_c, ins, outs) {
          if (outs.q !== stages[4]) return `q ${outs.q}, expected ${stages[4]}`;
          if (ins.rst_n === 0n) stages = [0n, 0n, 0n, 0n, 0n];
          else if (ins.en === 1n) stages = [ins.d!, ...stages.slice(0, 4)];
          return null;
        },
      };
    },
  },
  {
    name: 'prienc',
    description: 'priority encoder over 12 bits',
    elaborate: () => elaborate(PriorityEncoder, { n: 12 }).design,
    stimulus: (_c, rng) => ({ in: rng.int(4) === 0 ? 0n : rng.bits(12) >> BigInt(rng.int(12)) }),
    golden: () => ({
      check(_c, ins, outs) {
        const v = ins.in!;
        const low = v === 0n ? 0n : BigInt([...v.toString(2)].reverse().indexOf('1'));
        return outs.index === low && outs.valid === b(v !== 0n) ? null : `index ${outs.index}/valid ${outs.valid} for ${v.toString(2)}`;
      },
    }),
  },
  {
    name: 'onehot',
    description: 'one-hot to index encoder over 8 bits',
    elaborate: () => elaborate(OneHotEncoder, { n: 8 }).design,
    stimulus: (_c, rng) => ({ in: 1n << BigInt(rng.int(8)) }),
    golden: () => ({ check: (_c, ins, outs) => (outs.index === BigInt(ins.in!.toString(2).length - 1) ? null : `index ${outs.index} for ${ins.in}`) }),
  },
  {
    name: 'decoder',
    description: 'index to one-hot decoder over 6 outputs',
    elaborate: () => elaborate(Decoder, { n: 6 }).design,
    stimulus: (_c, rng) => ({ index: BigInt(rng.int(8)), en: b(rng.int(4) !== 0) }),
    golden: () => ({ check: (_c, ins, outs) => (outs.out === (ins.en === 1n && ins.index! < 6n ? 1n << ins.index! : 0n) ? null : `out ${outs.out} for index ${ins.index}`) }),
  },
];
