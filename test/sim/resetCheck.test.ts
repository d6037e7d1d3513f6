// The reset check: registers with a reset power on at seeded random values, the same on every engine, so that a testbench that forgets the reset fails.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UInt, defineModule, elaborate, emitSystemVerilog, input, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { powerOnValue } from '../../src/hdl/ir/powerOn.ts';

const Leaf = defineModule('Leaf', () => ({ en: input(UInt(1)), count: output(UInt(40)) }), (m, io) => {
  const total = m.reg(UInt(40), { reset: 0 });
  total.set(total.add(io.en));
  io.count.set(total);
});
const Top = defineModule('ResetCheckTop', () => ({ en: input(UInt(1)), a: output(UInt(40)), b: output(UInt(40)), kept: output(UInt(8)) }), (m, io) => {
  const left = m.instance(Leaf, undefined);
  const right = m.instance(Leaf, undefined);
  left.io.en.set(io.en);
  right.io.en.set(io.en);
  io.a.set(left.io.count);
  io.b.set(right.io.count);
  // No reset: defined by its init value, which the check leaves alone.
  const kept = m.reg(UInt(8), { init: 42 });
  kept.set(kept);
  io.kept.set(kept);
});
const design = elaborate(Top, undefined).design;

describe('the reset check', () => {
  test('the same seeded power-on values on js, wasm, Verilator and Icarus; other seeds differ; without a seed, init values', async () => {
    const expected = powerOnValue(7, 'Leaf', 'total', 40);
    expect(expected).not.toBe(0n);
    for (const backend of ['js', 'wasm', 'verilator', 'icarus'] as const) {
      const sim = await compileSimulator(design, { backend, resetCheckSeed: 7 } as never);
      try {
        expect([sim.peek('a'), sim.peek('b'), sim.peek('kept')], backend).toEqual([expected, expected, 42n]);
        sim.poke('rst_n', 0);
        sim.step();
        expect(sim.peek('a'), `${backend}: the reset still works`).toBe(0n);
      } finally {
        sim.close();
      }
    }
    expect(powerOnValue(8, 'Leaf', 'total', 40)).not.toBe(expected);
    expect(compileSimulator(design).peek('a')).toBe(0n);
    expect(emitSystemVerilog(design, { resetCheckSeed: 7 }).files.find((f) => f.path === 'Leaf.sv')!.text).toContain(`total = 40'h${expected.toString(16)};`);
  }, 300_000);

  test('lockstep gives every member the seed; rtgpu sim --reset-check fails a testbench that forgets the reset', async () => {
    const sim = await compileSimulator(design, { backend: 'lockstep', backends: ['js', 'verilator', 'icarus'], resetCheckSeed: 3 });
    try {
      sim.poke('rst_n', 1);
      sim.step(3);
      // en is 0: the count holds its power-on value.
      expect(sim.peek('a')).toBe(powerOnValue(3, 'Leaf', 'total', 40));
    } finally {
      sim.close();
    }
    const dir = join('.cache', `reset-check-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const tb = (reset: boolean) =>
        `import { UInt, defineModule, elaborate, input, output } from 'rtgpu/hdl';\nimport type { Testbench } from 'rtgpu/hdl/testbench';\n` +
        `const Counter = defineModule('Counter', () => ({ en: input(UInt(1)), count: output(UInt(8)) }), (m, io) => {\n  const count = m.reg(UInt(8), { reset: 0 });\n  count.set(count.add(io.en));\n  io.count.set(count);\n});\n` +
        `export const design = elaborate(Counter, undefined).design;\nexport default async function (tb: Testbench) {\n  ${reset ? 'await tb.reset();' : "tb.poke('rst_n', 1);"}\n  tb.poke('en', 1);\n  await tb.tick(5);\n  if (tb.peek('count') !== 5n) throw new Error(\`count is \${tb.peek('count')}\`);\n}\n`;
      writeFileSync(join(dir, 'forgot.tb.ts'), tb(false));
      writeFileSync(join(dir, 'reset.tb.ts'), tb(true));
      const run = (file: string, ...flags: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', 'sim', join(dir, file), '--seed', '3', ...flags], { reject: false });
      expect((await run('forgot.tb.ts')).exitCode, 'passes by luck without the check').toBe(0);
      const checked = await run('forgot.tb.ts', '--reset-check');
      expect(checked.exitCode).toBe(1);
      expect(checked.stdout).toMatch(/^FAIL: .*forgot\.tb\.ts on wasm, seed 3, at cycle 5/m);
      const good = await run('reset.tb.ts', '--reset-check', '--sim', 'lockstep');
      expect(good.exitCode, good.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
