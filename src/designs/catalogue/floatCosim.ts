// The float units as co-simulation designs: a representative latency each, operands biased toward
// exponent edge cases, and a golden model that checks every valid result against the TS reference
// `stages` cycles after its operands went in.
import { elaborate, type Design } from '../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../hdl/cosim/index.ts';
import type { Rng } from '../../util/seededRandom.ts';
import { floatUnit, type FloatUnitSpec } from './floatVectors.ts';

/** Reset for the first two cycles, then rarely (it must clear every valid bit in flight). */
const resetFor = (cycle: number, rng: Rng): bigint => (cycle < 2 || rng.int(3000) === 0 ? 0n : 1n);

const hex = (x: bigint) => `0x${x.toString(16).padStart(8, '0')}`;

/**
 * A model of the pipeline: `stages` slots shifting once per cycle, each holding the valid bit and the
 * expected outputs of the operation in it. A reset cycle empties every slot at its clock edge.
 */
function pipelineGolden(spec: FloatUnitSpec, stages: number): () => GoldenModel {
  return () => {
    type Slot = { valid: boolean; a: number; b: number; expected: readonly number[] };
    const empty: Slot = { valid: false, a: 0, b: 0, expected: [] };
    let slots: Slot[] = new Array<Slot>(stages).fill(empty);
    return {
      check(_cycle, ins, outs) {
        const a = Number(ins.a);
        const b = Number(ins.b ?? 0n);
        const incoming: Slot = ins.in_valid === 1n ? { valid: true, a, b, expected: spec.reference(a, b) } : empty;
        const head = stages === 0 ? incoming : slots[stages - 1]!;
        let msg: string | null = null;
        if (outs.out_valid !== (head.valid ? 1n : 0n)) msg = `out_valid is ${outs.out_valid}, expected ${head.valid ? 1 : 0}`;
        else if (head.valid) {
          spec.outputs.forEach((port, k) => {
            const want = BigInt(head.expected[k]! >>> 0);
            if (msg === null && outs[port] !== want) msg = `${spec.op}(${hex(BigInt(head.a >>> 0))}, ${hex(BigInt(head.b >>> 0))}): ${port} is ${hex(outs[port]!)}, expected ${hex(want)}`;
          });
        }
        if (stages > 0) slots = ins.rst_n === 0n ? new Array<Slot>(stages).fill(empty) : [incoming, ...slots.slice(0, stages - 1)];
        return msg;
      },
    };
  };
}

function floatDesign(name: string, op: string, what: string): CosimDesign {
  const spec = floatUnit(op);
  const stages = spec.stages;
  return {
    name,
    description: `${what}, ${stages} pipeline stage${stages === 1 ? '' : 's'}`,
    elaborate: (): Design => elaborate(spec.def, { stages }).design,
    stimulus: (cycle, rng) => {
      const [a, b] = spec.generate(rng);
      const s: Record<string, bigint> = { in_valid: rng.int(8) === 0 ? 0n : 1n, a: BigInt(a >>> 0) };
      if (spec.operands.length === 2) s.b = BigInt(b >>> 0);
      if (stages > 0) s.rst_n = resetFor(cycle, rng);
      return s;
    },
    golden: pipelineGolden(spec, stages),
  };
}

export const floatDesigns: CosimDesign[] = [
  floatDesign('fadd', 'add', 'binary32 add'),
  floatDesign('fmul', 'mul', 'binary32 multiply'),
  floatDesign('fdiv', 'div', 'binary32 divide (radix-2 recurrence)'),
  floatDesign('fsqrt', 'sqrt', 'binary32 square root (radix-2 recurrence)'),
  floatDesign('fcmp', 'cmp', 'binary32 compare (flags, lt, eq, gt, unordered)'),
  floatDesign('itof', 'itof', 'int32 to binary32'),
  floatDesign('ftoi', 'ftoi', 'binary32 to int32 (truncating, saturating)'),
];
