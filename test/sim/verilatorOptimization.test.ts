// The C++ optimization level of Verilator builds: -O2 unless $RTGPU_VERILATOR_OPT names another, a bad value an error.
import { afterEach, expect, test } from 'vitest';
import { verilatorCxxOptimization } from '../../src/hdl/tools/verilatorCompile.ts';

const saved = process.env.RTGPU_VERILATOR_OPT;
afterEach(() => {
  if (saved === undefined) delete process.env.RTGPU_VERILATOR_OPT;
  else process.env.RTGPU_VERILATOR_OPT = saved;
});

test('-O2 by default (also when empty), the level named otherwise, an error naming the variable for anything else', () => {
  delete process.env.RTGPU_VERILATOR_OPT;
  expect(verilatorCxxOptimization()).toBe('-O2');
  process.env.RTGPU_VERILATOR_OPT = '';
  expect(verilatorCxxOptimization()).toBe('-O2');
  for (const level of ['0', '1', '3', 's']) {
    process.env.RTGPU_VERILATOR_OPT = level;
    expect(verilatorCxxOptimization()).toBe(`-O${level}`);
  }
  for (const bad of ['-O0', 'fast', '4', '0 -march=native']) {
    process.env.RTGPU_VERILATOR_OPT = bad;
    expect(() => verilatorCxxOptimization()).toThrow(`RTGPU_VERILATOR_OPT must be one of 0, 1, 2, 3, s, g (the C++ compiler's -O level), got '${bad}'`);
  }
});
