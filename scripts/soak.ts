// The long checks CI does not run, one after another, with a summary: fuzzing every parser, random
// designs on every back end, the clock-crossing library, random programs on the RT core, the float units, the IC
// system, the textured kernel, the BVH8 IC system, proofs at full size.
// Usage: npm run soak -- [--quick] [--only NAMES] [--seed S]   (figures: docs/reliability.md)
import { execa } from 'execa';
import { parseArgs } from 'node:util';
import { seedFromEnv } from '../src/util/seededRandom.ts';

interface Step {
  readonly name: string;
  readonly what: string;
  /** The command for a full run and for --quick. */
  readonly command: (quick: boolean, seed: number) => { file: string; args: string[]; env?: Record<string, string> };
}

const tsx = (script: string, ...args: string[]) => ({ file: process.execPath, args: ['--import', 'tsx', script, ...args] });

const STEPS: readonly Step[] = [
  {
    name: 'fuzz',
    what: 'every parser of user input, 1,000,000 mutated inputs each (design files: 10,000)',
    command: (quick, seed) => tsx('scripts/fuzz.ts', '--runs', quick ? '20000' : '1000000', '--seed', String(seed), '--out', 'fuzz-findings'),
  },
  {
    name: 'designs',
    what: 'random eDSL designs: 20,000 on js/wasm, 2,500 on Verilator and Icarus',
    command: (quick, seed) => ({ file: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', 'test/property', '--testTimeout=0'], env: { RTGPU_DESIGNS: quick ? '0.2' : '10', RTGPU_SOAK: '1', SEED: String(seed) } }),
  },
  {
    name: 'full-size',
    what: 'the test files CI runs smaller (test/scale.ts) at their full size: the BVH8 IC system (default scene 32x24, 16 random scenes, the bunny at 32 and 16 slots, lint at 64 slots with 6-bit thread ids, one whole cosim scene), the BVH IC system (64x48 frames, 24 random scenes), the GPU in lockstep with Icarus at 8x6 and with 32 IC cores, the BVH8 GPU and `rtgpu run --sim lockstep` of a trace RVa with Icarus too, every packaged example on every engine',
    command: (_quick, seed) => ({ file: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', 'test/gpu/bvh8IcCore.test.ts', 'test/gpu/bvhIcCore.test.ts', 'test/gpu/gpuCosim.test.ts', 'test/gpu/gpuTop.test.ts', 'test/gpu/gpuBvh8.test.ts', 'test/cli/traceQuery.test.ts', 'test/package/package.test.ts', '--testTimeout=0'], env: { RTGPU_SOAK: '1', SEED: String(seed) } }),
  },
  {
    name: 'handoff',
    what: "rtl-out's Yosys script on the whole rtgpu_top (about 140 s of Yosys)",
    command: () => ({ file: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', 'test/rtl/rtlHandoff.test.ts', '-t', 'rtgpu_top', '--testTimeout=0'], env: { RTGPU_SOAK: '1' } }),
  },
  {
    name: 'rtl-yosys',
    what: "Yosys synth on every design of rtl-out (CI runs Yosys' front end alone on the seventeen slow ones, and leaves those the gate-level checks synthesize to them)",
    command: () => ({ file: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', 'test/cli/rtlOut.test.ts', '--testTimeout=0'], env: { RTGPU_SOAK: '1' } }),
  },
  {
    name: 'gates',
    what: "Yosys' gate-level netlists against the TS simulator, the RT core and the IC and BVH IC systems included (CI leaves them out: about 450 s), the float divider and main memory for twice CI's cycles",
    command: (_quick, seed) => ({ file: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', 'test/synth/postSynthCosim.test.ts', '--testTimeout=0'], env: { RTGPU_SOAK: '1', SEED: String(seed) } }),
  },
  {
    name: 'rtl-equivalence',
    what: 'Yosys proof that every handed-off module says the same in readable and netlist-style SystemVerilog (15 min per module at most: the BVH IC core takes 5)',
    command: (quick) => tsx('scripts/rtl-equivalence.ts', '--timeout', quick ? '20' : '900'),
  },
  {
    name: 'proofs',
    what: "rtgpu prove on the library's blocks and the GPU's IC queue at the sizes the GPU uses, depth 10 to 20 (CI proves small ones)",
    command: () => tsx('scripts/prove-soak.ts'),
  },
  {
    name: 'boards',
    what: `Yosys synth of every board preset's GPU (minutes each), failing if a resource passes 85 % of the device`,
    command: () => tsx('scripts/board-utilization.ts'),
  },
  {
    name: 'texture-gpu',
    what: 'rtgpu_top with a texture unit: lint of its RTL, and a txd frame in lockstep on TS, Verilator and Icarus (3 to 10 min, most of it building Verilator)',
    command: (_quick, seed) => ({ file: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', 'test/gpu/gpuTexture.test.ts', '--testTimeout=0'], env: { RTGPU_SOAK: '1', SEED: String(seed) } }),
  },
  {
    name: 'texture-handoff',
    what: "rtgpu rtl --texture-unit: the handoff's recorded textured frame (txd, the texture image loaded by DMA) on its testbench in Icarus and Verilator (5 to 10 min)",
    command: () => ({ file: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', 'test/rtl/rtlHandoff.test.ts', '-t', 'texture-unit', '--testTimeout=0'], env: { RTGPU_SOAK: '1' } }),
  },
  {
    name: 'cdc',
    what: 'the clock-crossing library under random clock ratios and phases: AsyncFifo with a scoreboard for 1,000,000 words on the TS simulator (CI: 100,000) and 9,000 to 200,000 per run on wasm, Verilator, Icarus and lockstep; the synchronizers ten times longer than CI',
    command: (quick, seed) => ({ file: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', 'test/lib/clockCrossing', '--testTimeout=0'], env: quick ? { SEED: String(seed) } : { RTGPU_SOAK: '1', SEED: String(seed) } }),
  },
  {
    name: 'core',
    what: 'random programs on the RT core against the ISA simulator (10,000)',
    command: (quick, seed) => tsx('scripts/core-soak.ts', '--count', quick ? '50' : '10000', '--seed', String(seed)),
  },
  {
    name: 'float',
    what: 'every float unit against the reference (1,000,000 operations each)',
    command: (quick, seed) => tsx('scripts/float-soak.ts', '--count', quick ? '20000' : '1000000', '--seed', String(seed)),
  },
  {
    name: 'ic',
    what: 'ray-triangle tests through the IC system against the caster, half the rays with random ray queries (1,000,000)',
    command: (quick, seed) => tsx('scripts/ic-soak.ts', '--tests', quick ? '5000' : '1000000', '--seed', String(seed)),
  },
  {
    name: 'ic-cosim',
    what: 'the IC system (rtgpu cosim ic_core) on TS, Verilator and Icarus in lockstep, with the caster as golden model: 200,000 cycles (CI runs 6,000)',
    command: (quick, seed) => ({ file: process.execPath, args: ['bin/rtgpu.mjs', 'cosim', 'ic_core', '--cycles', quick ? '6000' : '200000', '--seed', String(seed), '--sim', 'ts,verilator,icarus'] }),
  },
  {
    name: 'bvh-cosim',
    what: 'the BVH IC system (rtgpu cosim bvh_ic) on TS, Verilator and Icarus in lockstep, with the BVH traversal as golden model: random scenes, masks and ray queries, 60,000 cycles (CI runs its own)',
    command: (quick, seed) => ({ file: process.execPath, args: ['bin/rtgpu.mjs', 'cosim', 'bvh_ic', '--cycles', quick ? '6000' : '60000', '--seed', String(seed), '--sim', 'ts,verilator,icarus'] }),
  },
  {
    name: 'bvh8-cosim',
    what: 'the BVH8 IC system (rtgpu cosim bvh8_ic) on TS, Verilator and Icarus in lockstep, with castRayBvh8 as golden model: ten random scenes, 45,000 cycles (CI runs one)',
    command: (quick, seed) => ({ file: process.execPath, args: ['bin/rtgpu.mjs', 'cosim', 'bvh8_ic', '--cycles', quick ? '4500' : '45000', '--seed', String(seed), '--sim', 'ts,verilator,icarus'] }),
  },
  {
    name: 'textured',
    what: 'the textured kernel on the ISA simulator against the float64 renderer: random cameras, traversals and texture coordinates (500 frames)',
    command: (quick, seed) => tsx('scripts/textured-soak.ts', '--frames', quick ? '10' : '500', '--seed', String(seed)),
  },
  {
    name: 'bvh8',
    what: 'random scenes and rays through the BVH8 IC system against castRayBvh8 at five float-latency configurations (200,000 rays); then rtgpu_top with BVH8 IC cores in lockstep on TS, Verilator and Icarus: thin rods built with oriented boxes, a stack overflow (about 40 min on a loaded 2-core machine, 20 of them building the simulators)',
    command: (quick, seed) => tsx('scripts/bvh8-soak.ts', '--rays', quick ? '3000' : '200000', '--seed', String(seed), ...(quick ? [] : ['--gpu-lockstep'])),
  },
];

function options() {
  try {
    return parseArgs({ options: { quick: { type: 'boolean' }, only: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (e) {
    console.error(`soak: ${(e as Error).message}`);
    process.exit(2);
  }
}

const values = options();
if (values.help) {
  console.log(`usage: npm run soak -- [--quick] [--only ${STEPS.map((s) => s.name).join(',')}] [--seed S]\n\n${STEPS.map((s) => `  ${s.name.padEnd(8)} ${s.what}`).join('\n')}`);
  process.exit(0);
}
const only = values.only?.split(',').map((s) => s.trim());
const unknown = only?.find((n) => !STEPS.some((s) => s.name === n));
if (unknown) {
  console.error(`soak: unknown step '${unknown}' (steps: ${STEPS.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
if (values.seed !== undefined && !/^\d+$/.test(values.seed)) {
  console.error(`soak: --seed must be a whole number, got '${values.seed}'`);
  process.exit(2);
}
const seed = values.seed !== undefined ? Number(values.seed) >>> 0 : seedFromEnv();
const steps = STEPS.filter((s) => !only || only.includes(s.name));

console.log(`soak${values.quick ? ' (quick)' : ''}: ${steps.map((s) => s.name).join(', ')}; seed ${seed} (--seed ${seed} reruns it)`);
const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const step of steps) {
  const { file, args, env } = step.command(values.quick ?? false, seed);
  console.log(`\n=== ${step.name}: ${step.what}\n$ ${[file === process.execPath ? 'node' : file, ...args].join(' ')}`);
  const t0 = performance.now();
  const r = await execa(file, args, { stdio: 'inherit', reject: false, env });
  results.push({ name: step.name, ok: r.exitCode === 0, seconds: (performance.now() - t0) / 1000 });
}
console.log('\nstep      result  seconds');
for (const r of results) console.log(`${r.name.padEnd(9)} ${(r.ok ? 'pass' : 'FAIL').padEnd(7)} ${r.seconds.toFixed(0).padStart(7)}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
