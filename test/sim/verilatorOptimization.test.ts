// The C++ optimization level of Verilator builds: -O2 unless $RTGPU_VERILATOR_OPT names another, a bad value an error,
// and the level every compile of a model build really gets; the precompiled header of a model compiled as many files.
import { afterEach, expect, test } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UInt, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { verilatorBuild, verilatorCxxOptimization, verilatorMakeVariables } from '../../src/hdl/tools/verilatorCompile.ts';

const saved = { opt: process.env.RTGPU_VERILATOR_OPT, cache: process.env.RTGPU_CACHE, path: process.env.PATH };
afterEach(() => {
  for (const [name, value] of [['RTGPU_VERILATOR_OPT', saved.opt], ['RTGPU_CACHE', saved.cache], ['PATH', saved.path]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

test('-O2 by default (also when empty), the level named otherwise, an error naming the variable for anything else', () => {
  delete process.env.RTGPU_VERILATOR_OPT;
  expect(verilatorCxxOptimization()).toBe('-O2');
  process.env.RTGPU_VERILATOR_OPT = '';
  expect(verilatorCxxOptimization()).toBe('-O2');
  for (const level of ['0', '1', '3', 's']) {
    process.env.RTGPU_VERILATOR_OPT = level;
    expect(verilatorCxxOptimization()).toBe(`-O${level}`);
    const model = `-O${level} -Winvalid-pch -include rtgpu_pch.h`;
    expect(verilatorMakeVariables()).toEqual([`OPT_FAST=${model}`, `OPT_SLOW=${model}`, `OPT_GLOBAL=-O${level}`]);
    expect(verilatorMakeVariables('-include ../x.h')).toEqual([`OPT_FAST=${model}`, `OPT_SLOW=${model}`, `OPT_GLOBAL=-O${level} -include ../x.h`]);
  }
  for (const bad of ['-O0', 'fast', '4', '0 -march=native']) {
    process.env.RTGPU_VERILATOR_OPT = bad;
    expect(() => verilatorCxxOptimization()).toThrow(`RTGPU_VERILATOR_OPT must be one of 0, 1, 2, 3, s, g (the C++ compiler's -O level), got '${bad}'`);
  }
});

const Adder = defineModule('OptAdder', () => ({ a: input(UInt(8)), b: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
  io.y.set(io.a.add(io.b));
});

// Verilator's makefile puts its own -Os after our CFLAGS; the last -O on a compile line is the one g++ uses.
test('every C++ compile of a live Verilator build ends on the chosen level (the model and the runtime)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rtgpu-opt-'));
  try {
    // A stand-in ccache (the build uses OBJCACHE=ccache when one is on PATH) that records each compile line.
    const log = join(dir, 'compiles.txt');
    // Its compiler's messages go to the log too: an unusable precompiled header is a -Winvalid-pch warning there.
    writeFileSync(join(dir, 'ccache'), `#!/bin/sh\n[ "$1" = --version ] && { echo "ccache version 0 (recorder)"; exit 0; }\necho "$*" >> '${log}'\nexec "$@" 2>> '${log}'\n`);
    chmodSync(join(dir, 'ccache'), 0o755);
    process.env.PATH = `${dir}:${saved.path}`;
    process.env.RTGPU_CACHE = join(dir, 'cache');
    process.env.RTGPU_VERILATOR_OPT = '1';
    const sim = await compileSimulator(elaborate(Adder, {}).design, { backend: 'verilator' });
    sim.poke('a', 200n);
    sim.poke('b', 100n);
    expect(sim.peek('y')).toBe(44n);
    sim.close();
    const recorded = readFileSync(log, 'utf8');
    const compiles = recorded.split('\n').filter((l) => / -c /.test(l));
    expect(compiles.some((l) => l.includes('verilated.cpp'))).toBe(true);
    expect(compiles.some((l) => l.includes('OptAdder'))).toBe(true);
    for (const line of compiles) expect(line.match(/ -O\S*/g)?.at(-1), line).toBe(' -O1');
    // The model's files (and the wrapper) take the precompiled header; Verilator's runtime does not, so ccache shares it between designs.
    for (const line of compiles) expect(line.includes('-include rtgpu_pch.h'), line).toBe(!/verilated\w*\.cpp/.test(line));
    expect(recorded).not.toMatch(/\.gch: not used because/);
    // What the compile left beside the library (objects, archives, C++, the header) is removed: the cache keeps builds by their bytes.
    const [model] = readdirSync(join(dir, 'cache', 'verilator-model'));
    expect(readdirSync(join(dir, 'cache', 'verilator-model', model!, 'obj'))).toEqual(['librtgpu_model.so']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);

// Verilator compiles a large model as many files (VM_PARALLEL_BUILDS); `--output-split 1` makes a small one so.
test('a model compiled as many files gets its headers precompiled once, and every file uses them; one compiled as one file does not', async () => {
  process.env.RTGPU_VERILATOR_OPT = '0';
  const sv = ['module Split(input logic clk, input logic [7:0] a, output logic [7:0] y);', '  logic [7:0] r;', '  always_ff @(posedge clk) r <= r + a;', '  assign y = r ^ a;', 'endmodule', ''].join('\n');
  for (const split of [true, false]) {
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-pch-'));
    try {
      writeFileSync(join(dir, 'Split.sv'), sv);
      const r = await verilatorBuild({ cwd: dir, args: ['--cc', '-O3', ...(split ? ['--output-split', '1'] : []), '--top-module', 'Split', 'Split.sv'] });
      expect(r.ok, r.output).toBe(true);
      expect(r.precompiledHeader).toBe(split);
      expect(existsSync(join(dir, 'obj', 'rtgpu_pch.h.gch'))).toBe(split);
      expect(r.output).not.toMatch(/\.gch: not used because/);
      expect(r.output).toMatch(/-include rtgpu_pch\.h/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}, 300_000);
