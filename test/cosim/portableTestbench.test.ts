// Portable testbenches: generated from a seeded stimulus, they pass on Icarus and Verilator alone (the commands their
// header gives), and a vector file with one expected output changed fails, naming that cycle and port.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { fixtureDesigns } from './fixtures.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { portableTestbench, testbenchCommands, type PortableTestbench } from '../../src/hdl/cosim/portableTestbench.ts';
import { stimulusRecording } from '../../src/hdl/cosim/runCosim.ts';
import type { CosimDesign } from '../../src/hdl/cosim/design.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { toolVersion } from '../../src/hdl/tools/toolchain.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { tempDir } from '../tempDir.ts';

const seed = seedFromEnv();
console.log(`portableTestbench.test seed=${seed} (rerun with SEED=${seed})`);
const CYCLES = 400;

const sh = (command: string, cwd: string) => execa('sh', ['-c', command], { cwd, reject: false, all: true });
/** The command that runs a built testbench: the last step of the compile-and-run line. */
const runStep = (command: string) => command.split(' && ').at(-1)!;

/**
 * `vec` with the expected value of one output, in one cycle, changed (its lowest bit flipped); the
 * cycle is past the first few, so that a power-on difference could not hide behind it.
 */
function corrupt(tb: PortableTestbench, vec: string, rng: () => number): { text: string; cycle: number; port: string } {
  const lines = vec.split('\n');
  const first = lines.findIndex((l) => !l.startsWith('//'));
  const outputs = tb.columns.filter((c) => c.dir === 'output');
  const column = outputs[Math.floor(rng() * outputs.length)]!;
  const cycle = 5 + Math.floor(rng() * (tb.cycles - 5));
  const line = lines[first + cycle]!;
  const at = column.at + column.digits - 1;
  lines[first + cycle] = line.slice(0, at) + (parseInt(line[at]!, 16) ^ 1).toString(16) + line.slice(at + 1);
  return { text: lines.join('\n'), cycle, port: column.sv };
}

// Registers of each kind, wide ports, memories; an asynchronous reset; no clock; escaped port names; the library FIFO.
const designs: [string, () => Promise<CosimDesign>][] = [...fixtureDesigns.map((d) => [d.name, async () => d] as [string, () => Promise<CosimDesign>]), ['fifo', () => findDesign('fifo')]];

describe.each(designs)('%s', (_name, load) => {
  const dir = mkdtempSync(join(tmpdir(), 'rtgpu-portable-tb-'));
  let top: string;
  let tb: PortableTestbench;
  let bad: { cycle: number; port: string };
  let commands: ReturnType<typeof testbenchCommands>;
  beforeAll(async () => {
    const d = await load();
    const design = d.elaborate();
    top = design.top;
    const emitted = emitSystemVerilog(design);
    tb = portableTestbench(design, stimulusRecording(d, design, CYCLES, seed), { emitted, description: `'${d.name}', seed ${seed}` });
    for (const f of [...emitted.files, ...tb.files]) writeFileSync(join(dir, f.path), f.text);
    const vec = tb.files.find((f) => f.path.endsWith('.vec'))!.text;
    const corrupted = corrupt(tb, vec, createRng(seed ^ tb.name.length));
    writeFileSync(join(dir, 'corrupted.vec'), corrupted.text);
    bad = corrupted;
    commands = testbenchCommands(tb.name, emitted.fileList.join(' '), `${tb.name}.sv`);
    // The header documents exactly these commands.
    for (const c of commands) expect(tb.files[0]!.text).toContain(c.command);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const [simulator, tool] of [['Icarus Verilog 11+', 'iverilog'], ['Verilator 5', 'verilator']] as const) {
    test(`${tool}: PASS; a changed expected output: FAIL naming its cycle and port`, async () => {
      await toolVersion(tool); // a missing tool fails here, naming its package
      rmSync(join(dir, 'build'), { recursive: true, force: true }); // as the user finds it: no build/ yet
      const command = commands.find((c) => c.simulator === simulator)!.command;
      const pass = await sh(command, dir);
      expect(pass.all).toMatch(new RegExp(`^PASS: ${top}: ${CYCLES} cycles, every output matched$`, 'm'));
      expect(pass.all).not.toMatch(/mismatch|FAIL/);
      expect(pass.exitCode, pass.all).toBe(0);

      const fail = await sh(`${runStep(command)} +vec=corrupted.vec`, dir);
      expect(fail.exitCode).not.toBe(0);
      expect(fail.all).toMatch(new RegExp(`^mismatch at cycle ${bad.cycle} on ${bad.port}: expected \\d+'h[0-9a-f]+, got \\d+'h[0-9a-f]+$`, 'm'));
      expect(fail.all).toContain(`FAIL: ${top}: 1 mismatches in ${CYCLES} cycles (the first at cycle ${bad.cycle} on ${bad.port})`);

      const missing = await sh(`${runStep(command)} +vec=missing.vec`, dir);
      expect(missing.exitCode).not.toBe(0);
    }, 120_000);
  }
});

test('a recording that is not of the design is refused', async () => {
  const d = fixtureDesigns.find((x) => x.name === 'comb')!;
  const design = d.elaborate();
  const rec = stimulusRecording(d, design, 3, seed);
  expect(() => portableTestbench(design, { ...rec, inputs: ['b', 'a'] })).toThrow("the recording's inputs (b, a) are not the inputs of Comb (a, b)");
  expect(() => portableTestbench(design, { ...rec, cycles: 4 })).toThrow('the recording has 18 words; 4 cycles of Comb\'s inputs are 24');
});

test("rtl-out's fifo testbench passes, run as its header says", async () => {
  await toolVersion('iverilog');
  const dir = tempDir('rtl-out-fifo');
  cpSync('rtl-out/fifo', dir, { recursive: true });
  const tbFile = readdirSync(dir).find((f) => /^tb_.*\.sv$/.test(f))!;
  const command = /^\/\/ {3}- Icarus Verilog 11\+:\s+(.*)$/m.exec(readFileSync(join(dir, tbFile), 'utf8'))![1]!;
  expect(command).toContain('-f fifo.f');
  const r = await sh(command, dir);
  expect(r.all).toMatch(/^PASS: Fifo_depth16_width8: 1000 cycles, every output matched$/m);
  expect(r.exitCode).toBe(0);
}, 60_000);
