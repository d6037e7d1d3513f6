// Post-synthesis co-simulation: Yosys' gate-level netlists of the float units agree with the TS simulator on Icarus,
// every output, every cycle; the GPU's blocks do so with flip-flops that start X, as in silicon: every output
// defined once the reset is over.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { floatDesigns } from '../../src/designs/catalogue/floatCosim.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { formatMismatch, harnessDesign, registerProbes, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { icarusGate } from '../../src/hdl/cosim/icarusGate.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { gateNetlist } from '../../src/hdl/synth/gateNetlist.ts';
import type { CosimDesign } from '../../src/hdl/cosim/design.ts';
import { fixtureDesigns } from '../cosim/fixtures.ts';
import { gateLevelBlocks } from './gateLevelDesigns.ts';
import { ciOrSoak } from '../scale.ts';

const seed = seedFromEnv();
console.log(`postSynthCosim.test seed=${seed} (rerun with SEED=${seed})`);

/**
 * Random cycles per design, sized so that the file costs about three minutes of CPU with an empty
 * build cache, most of it Yosys and Icarus on the gates (the IC core runs ~10 cycles/s, the RT core
 * ~20). The IC core needs up to ~400 cycles to load its scene before rays come back. The soak's
 * gates step runs the slowest three twice as long.
 */
const cycles: Readonly<Record<string, number>> = { fadd: 2000, fmul: 1500, fdiv: ciOrSoak(500, 1000), fsqrt: 1000, fcmp: 3000, itof: 3000, ftoi: 3000, rtcore: ciOrSoak(400, 800), ic_core: 600, bvh_ic: 400, memory_controller: 3000, command_patcher: 3000, ic_buffer: 2000, main_memory: ciOrSoak(1000, 2000), triangle_memory: 2000 };

async function expectAgreement(d: CosimDesign, n: number, sim: 'icarus-gate' | 'icarus-gate-reset' = 'icarus-gate'): Promise<void> {
  const r = await runCosim(d, { cycles: n, seed, sims: ['ts', sim] });
  expect(r.mismatch && `${formatMismatch(r.mismatch)}\n(${d.name}, SEED=${seed})`).toBeNull();
  expect(r.golden && `golden model at cycle ${r.golden.cycle}: ${r.golden.message} (SEED=${seed})`).toBeNull();
  console.log(`${d.name}: ${n} cycles on the gates, 0 mismatches (${sim} ${r.seconds[sim]!.toFixed(1)} s)`);
}

describe('the gate-level netlist agrees with the TS simulator', () => {
  for (const d of floatDesigns) {
    test(d.name, () => expectAgreement(d, cycles[d.name]!), 600_000);
  }
});

// The float units' data outputs are undefined while their pipeline fills (out_valid is 0): they run above,
// flip-flops at their power-on values. The GPU's blocks must not show an X on any port.
describe("the GPU's blocks out of reset: flip-flops start X, every output is defined after the reset and equals the TS simulator's", () => {
  for (const name of gateLevelBlocks) {
    test(name, async () => expectAgreement(await findDesign(name), cycles[name]!, 'icarus-gate-reset'), 600_000);
  }

  test('an output from a register without reset is an error naming the port and the cycle', async () => {
    const noreset = fixture('noreset');
    // The power-on netlist has no X: held starts at its power-on 0 like the TS simulator's.
    await expectAgreement(noreset, 200);
    await expect(runCosim({ ...noreset, stimulus: (c) => ({ rst_n: c < 2 ? 0n : 1n, d: 5n, load: c === 6 ? 1n : 0n }) }, { cycles: 10, seed, sims: ['ts', 'icarus-gate-reset'] })).rejects.toThrow(
      "icarus: output 'held' is X/Z ('xx') at cycle 2: an uninitialized or undriven value reaches it",
    );
  }, 120_000);
});

const fixture = (name: string) => fixtureDesigns.find((d) => d.name === name)!;

describe('what synthesis must keep', () => {
  test('$readmemh contents and register power-on values reach the netlist', async () => {
    const netlist = async (name: string) => {
      const { harness } = harnessDesign(fixture(name).elaborate());
      return (await gateNetlist({ top: harness.top, files: harness.svFiles, fileList: harness.fileList })).text;
    };
    expect(await netlist('mixed')).toMatch(/mem\[0\] = 48'h123456789abc;/);
    // `init: 42` on a register without reset: the value only power-on gives it.
    expect(await netlist('asyncreset')).toMatch(/reg \[15:0\] \S+ = 16'h002a;/);
  }, 300_000);

  // A masked memory with an image, wide arithmetic, an fsm, an asynchronous reset and power-on
  // values, a design without a clock, and ports named after reserved words.
  for (const name of ['mixed', 'asyncreset', 'comb', 'reserved']) {
    test(`fixture ${name}`, () => expectAgreement(fixture(name), name === 'mixed' ? 300 : 2000), 300_000);
  }

  test('registers cannot be compared on a netlist: a clear error, not a wrong answer', async () => {
    const design = fixture('asyncreset').elaborate();
    await expect(icarusGate.prepare(harnessDesign(design, registerProbes(design).probes).harness)).rejects.toThrow(/icarus-gate compares outputs only/);
  });
});

describe('rtgpu cosim --sim icarus-gate', () => {
  test('runs the netlist next to the other simulators', async () => {
    const r = await execa(process.execPath, ['bin/rtgpu.mjs', 'cosim', 'counter', '--cycles', '500', '--seed', String(seed), '--sim', 'ts,icarus,icarus-gate'], { reject: false });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/icarus-gate: netlist of [\d.]+ MB/);
    expect(r.stdout).toMatch(/^500 cycles, 0 mismatches$/m);
  }, 120_000);
});
