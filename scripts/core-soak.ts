// Soak test of the RT core: random programs on the TS simulator against the ISA simulator.
// Usage: npx tsx scripts/core-soak.ts [--count 10000] [--seed S] [--pixels 2]
import { parseArgs } from 'node:util';
import { assemble } from '../src/isa/assembler.ts';
import { generateProgram, generateScene } from '../src/stimulus/randomProgram.ts';
import { checkCoreAgainstIss } from '../src/gpu/rtCore/verification/issLockstepCheck.ts';
import { createRng, seedFromEnv } from '../src/util/seededRandom.ts';

/** Bad flags end the script with a one-line message and exit status 2, not a stack trace. */
function fail(message: string): never {
  console.error(`core-soak: ${message}`);
  process.exit(2);
}

function flags() {
  try {
    return parseArgs({ options: { count: { type: 'string', default: '10000' }, seed: { type: 'string' }, pixels: { type: 'string', default: '2' } } }).values;
  } catch (e) {
    fail((e as Error).message);
  }
}
const values = flags();
const whole = (name: string, v: string) => (/^\d+$/.test(v) && Number(v) > 0 ? Number(v) : fail(`--${name} must be a positive whole number, got '${v}'`));
const count = whole('count', values.count);
const pixels = whole('pixels', values.pixels);
const seed = values.seed !== undefined ? whole('seed', values.seed) >>> 0 : seedFromEnv();

console.log(`core soak: ${count} random programs × ${pixels} pixels, seed ${seed} (program i uses seed + i)`);
const t0 = performance.now();
let instructions = 0;
let cycles = 0;
let failures = 0;
for (let i = 0; i < count; i++) {
  const s = (seed + i) >>> 0;
  const rng = createRng(s);
  const p = generateProgram(rng);
  const r = checkCoreAgainstIss({ program: assemble(p.source, `random-${s}.s`).words, constants: p.constants, scene: generateScene(rng), pixels });
  instructions += r.instructions;
  cycles += r.core.coreCycles;
  if (r.difference) {
    failures++;
    console.log(`  program seed ${s}: ${r.difference}`);
  }
  if ((i + 1) % 500 === 0) console.log(`  ${i + 1} programs, ${failures} failing, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
console.log(`${count} programs, ${instructions} instructions, ${cycles} core cycles (CPI ${(cycles / instructions).toFixed(2)}), ${failures} failing, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
process.exitCode = failures ? 1 : 0;
