// Soak test of the float units on the TS simulator: random operands biased toward exponent edge cases
// (a quarter uniform bits) against the TS reference, with bubbles in in_valid.
// Usage: npx tsx scripts/float-soak.ts [--count 1000000] [--seed S] [--op add[,mul…]] [--stages N]
//        npx tsx scripts/float-soak.ts --exhaustive --op sqrt [--from 0] [--to 0xffffffff]
//        (one-operand units only: every input bit pattern in [from, to])
import { parseArgs } from 'node:util';
import { UnitRunner, floatUnit, floatUnits, formatVectorMismatch } from '../src/designs/catalogue/floatVectors.ts';
import { createRng, seedFromEnv } from '../src/util/seededRandom.ts';

/** Bad flags end the script with a one-line message and exit status 2, not a stack trace. */
function fail(message: string): never {
  console.error(`float-soak: ${message}`);
  process.exit(2);
}

function flags() {
  try {
    return parseArgs({
      options: {
        count: { type: 'string', default: '1000000' },
        seed: { type: 'string' },
        op: { type: 'string' },
        stages: { type: 'string' },
        exhaustive: { type: 'boolean', default: false },
        from: { type: 'string', default: '0' },
        to: { type: 'string', default: '0xffffffff' },
      },
    }).values;
  } catch (e) {
    fail((e as Error).message);
  }
}
const values = flags();
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) fail(`--count must be a positive integer, got '${values.count}'`);
if (values.stages !== undefined && !/^\d+$/.test(values.stages)) fail(`--stages must be a whole number, got '${values.stages}'`);
const known = new Set(floatUnits.map((u) => u.op as string));
for (const op of values.op?.split(',') ?? []) if (!known.has(op)) fail(`unknown op '${op}'; ops: ${[...known].join(', ')}`);
const seed = values.seed !== undefined ? Number(values.seed) >>> 0 : seedFromEnv();
const specs = values.op ? values.op.split(',').map(floatUnit) : floatUnits;
let failed = false;

if (values.exhaustive) {
  const from = Number(values.from);
  const to = Number(values.to);
  if (!(from >= 0 && to <= 0xffffffff && from <= to)) fail(`--from/--to must satisfy 0 <= from <= to <= 0xffffffff`);
  for (const spec of specs) {
    if (spec.operands.length !== 1) fail(`--exhaustive needs a one-operand unit; ${spec.op} has two`);
    const stages = values.stages !== undefined ? Number(values.stages) : spec.stages;
    const runner = new UnitRunner(spec, stages);
    const t0 = performance.now();
    const batch = 1 << 20;
    const none = new Uint32Array(batch);
    let bad = 0;
    for (let start = from; start <= to; start += batch) {
      const n = Math.min(batch, to - start + 1);
      const a = new Uint32Array(n);
      for (let i = 0; i < n; i++) a[i] = start + i;
      for (const m of runner.run(a, none.subarray(0, n), undefined, 10 - Math.min(bad, 9))) {
        if (bad++ < 10) console.log(`  ${formatVectorMismatch(spec.op, m)}`);
      }
      if (((start - from) / batch) % 256 === 255) console.log(`  ${spec.op}: through 0x${(start + n - 1).toString(16)}, ${bad} mismatches, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    console.log(
      `${spec.op.padEnd(5)} stages ${String(stages).padStart(2)}: exhaustive 0x${from.toString(16)}..0x${to.toString(16)} (${to - from + 1} inputs), ${bad} mismatches, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    failed ||= bad > 0;
  }
  process.exit(failed ? 1 : 0);
}

console.log(`float soak: ${count} operations per unit, seed ${seed} (rerun with --seed ${seed})`);
for (const [i, spec] of specs.entries()) {
  const stages = values.stages !== undefined ? Number(values.stages) : spec.stages;
  const t0 = performance.now();
  const runner = new UnitRunner(spec, stages);
  const { mismatches, checked } = runner.runRandom(createRng((seed + i * 7919) >>> 0), count, 10);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${spec.op.padEnd(5)} stages ${String(stages).padStart(2)}: ${checked} vectors, ${mismatches.length}${mismatches.length >= 10 ? '+' : ''} mismatches, ${seconds.toFixed(1)} s`);
  for (const m of mismatches) console.log(`  ${formatVectorMismatch(spec.op, m)}`);
  failed ||= mismatches.length > 0;
}
process.exitCode = failed ? 1 : 0;
