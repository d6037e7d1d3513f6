// Lockstep co-simulation: TS simulator, Verilator and Icarus agree every cycle; mismatches, X and missing tools are reported.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureDesigns } from './fixtures.ts';
import { buildStimulus, firstMismatch, formatMismatch, harnessDesign, portLayout, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { topModule } from '../../src/hdl/ir/netlist.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { icarus } from '../../src/hdl/cosim/icarusHarness.ts';
import { verilator } from '../../src/hdl/cosim/verilatorHarness.ts';
import type { Net } from '../../src/hdl/ir/netlist.ts';

const seed = seedFromEnv();
console.log(`cosim.test seed=${seed} (rerun with SEED=${seed})`);

describe('three simulators agree on every output, every cycle', () => {
  for (const d of fixtureDesigns) {
    test(d.name, async () => {
      const r = await runCosim(d, { cycles: 4000, seed, sims: ['ts', 'verilator', 'icarus'] });
      expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
      expect(Object.keys(r.seconds)).toEqual(['ts', 'verilator', 'icarus']);
    }, 300_000);
  }
});

test('Icarus that does not answer within timeoutSeconds is an error naming the limit, not a run that never ends', async () => {
  const d = fixtureDesigns.find((x) => x.name === 'mixed')!;
  // 200,000 cycles take vvp seconds: far longer than the 0.2 s given.
  await expect(runCosim(d, { cycles: 200_000, seed, sims: ['ts', 'icarus'], timeoutSeconds: 0.2 })).rejects.toThrow(/vvp did not answer within 0\.2 s \(timeoutSeconds\)/);
}, 120_000);

// The harness is a build of its own (rtgpu bench times it): Verilator's miscompile fixes must reach it too.
test('the standalone Verilator harness gives the TS simulator\'s outputs on bitoptree (Verilator\'s bit-op-tree rewrite off)', async () => {
  const d = fixtureDesigns.find((x) => x.name === 'bitoptree')!;
  const design = d.elaborate();
  const top = topModule(design);
  const cycles = 2000;
  const stim = buildStimulus(d, top, cycles, seed);
  const outputs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output');
  const ts = compileSimulator(design).runVectors(stim.inputs.map((p) => p.net.name), outputs.map((n) => n.name), stim.data, cycles);
  const vl = await (await verilator.prepare(harnessDesign(design).harness)).run(stim.data, cycles);
  expect(new Set(ts).size, 'the output takes both values').toBe(2);
  expect([...vl.outputs]).toEqual([...ts]);
}, 300_000);

describe('registers compared every cycle too', () => {
  for (const name of ['mixed', 'asyncreset']) {
    test(name, async () => {
      const d = fixtureDesigns.find((x) => x.name === name)!;
      const r = await runCosim(d, { cycles: 3000, seed, sims: ['ts', 'verilator', 'icarus'], compareRegisters: true });
      expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
    }, 300_000);
  }
});

describe('reports', () => {
  const net = (name: string, width: number): Net => ({ id: 0, name, width, kind: 'output', signed: false, loc: { file: '/x/top.ts', line: 12, col: 3 } });
  test('the first mismatch names cycle, port, every value and both source lines', () => {
    const { ports, rowWords } = portLayout([net('a', 8), net('wide', 40)]);
    const ts = new Uint32Array([1, 5, 0, 2, 6, 0, 3, 7, 1]);
    const vl = new Uint32Array([1, 5, 0, 2, 6, 0, 3, 7, 0]);
    const m = firstMismatch(['ts', 'verilator'], { ts, verilator: vl }, ports, rowWords, 3, (n) => `Top.sv:${n === 'wide' ? 9 : '?'}`, 'Top')!;
    expect(m).toMatchObject({ cycle: 2, port: 'Top.wide', width: 40, values: { ts: 0x100000007n, verilator: 7n }, tsLoc: '/x/top.ts:12', svLoc: 'Top.sv:9' });
    expect(formatMismatch(m)).toBe("mismatch at cycle 2 on Top.wide:\n  ts         40'h0100000007\n  verilator  40'h0000000007\n  declared at /x/top.ts:12 (top.ts:12), driven at Top.sv:9");
  });

  test('no mismatch when traces agree', () => {
    const { ports, rowWords } = portLayout([net('a', 8)]);
    expect(firstMismatch(['ts', 'icarus'], { ts: new Uint32Array([4, 5]), icarus: new Uint32Array([4, 5]) }, ports, rowWords, 2, () => 'T.sv:?', 'T')).toBeNull();
  });

  test('an X reaching an output in Icarus is an error naming port and cycle', async () => {
    const sv = 'module Xy (input logic clk, input logic a, output logic y);\n  logic r;\n  always_ff @(posedge clk) if (a) r <= 1\'b1;\n  assign y = r;\nendmodule\n';
    const prepared = await icarus.prepare({ top: 'Xy', svFiles: [{ path: 'Xy.sv', text: sv }], fileList: ['Xy.sv'], clocked: true, ports: [{ name: 'a', width: 1, dir: 'input' }, { name: 'y', width: 1, dir: 'output' }] });
    await expect(prepared.run(new Uint32Array([0, 0, 1]), 3)).rejects.toThrow(/output 'y' is X\/Z \('x'\) at cycle 0/);
  }, 60_000);

  test('Verilator on two threads (--threads 2, what rtgpu bench --verilator-threads times) gives the outputs of one; a thread count under 1 is refused', async () => {
    // Two counters, so that the model has work to split; y = lo + hi.
    const sv = [
      'module Two (input logic clk, input logic [7:0] a, output logic [15:0] y);',
      '  logic [15:0] lo, hi;',
      '  always_ff @(posedge clk) begin lo <= lo + {8\'d0, a}; hi <= hi ^ {a, lo[7:0]}; end',
      '  assign y = lo + hi;',
      'endmodule',
      '',
    ].join('\n');
    const d = { top: 'Two', svFiles: [{ path: 'Two.sv', text: sv }], fileList: ['Two.sv'], clocked: true, ports: [{ name: 'a', width: 8, dir: 'input' as const }, { name: 'y', width: 16, dir: 'output' as const }] };
    const stimulus = Uint32Array.from({ length: 200 }, (_, i) => (i * 37 + 11) & 0xff);
    // A build cache of its own: two threads must be a build of their own (Verilator's --threads), not the one-thread model.
    const saved = process.env.RTGPU_CACHE;
    process.env.RTGPU_CACHE = mkdtempSync(join(tmpdir(), 'rtgpu-threads-'));
    try {
      const one = await (await verilator.prepare(d)).run(stimulus, 200);
      const two = await (await verilator.prepare({ ...d, threads: 2 })).run(stimulus, 200);
      expect(readdirSync(join(process.env.RTGPU_CACHE, 'verilator')).filter((f) => !f.endsWith('.lock'))).toHaveLength(2);
      expect(new Set(one.outputs).size).toBeGreaterThan(100);
      expect([...two.outputs]).toEqual([...one.outputs]);
      await expect(verilator.prepare({ ...d, threads: 0 })).rejects.toThrow('verilator harness of Two: threads must be a whole number of at least 1, got 0');
    } finally {
      rmSync(process.env.RTGPU_CACHE, { recursive: true, force: true });
      if (saved === undefined) delete process.env.RTGPU_CACHE;
      else process.env.RTGPU_CACHE = saved;
    }
  }, 300_000);

  test('a missing simulator is named with how to install it', async () => {
    const r = await execa(process.execPath, ['bin/rtgpu.mjs', 'cosim', 'bench', '--cycles', '10', '--sim', 'verilator'], { reject: false, env: { PATH: '/nonexistent' }, extendEnv: false });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/verilator not found on PATH: run 'bash scripts\/install-tools\.sh' \(Debian: apt-get install verilator\)/);
  }, 60_000);
});
