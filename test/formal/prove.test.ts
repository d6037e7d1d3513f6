// The formal flow (rtgpu/hdl/formal) on small designs: induction proofs, honest bounded results, counterexamples
// that replay on the TS simulator, Verilator and Icarus at the failing cycle, assumptions, covers, instances, the
// power-on state, and the designs it refuses. yosys-smtbmc or z3 missing fails these tests (MissingToolError).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Bool, defineModule, elaborate, input, output, type Design } from '../../src/hdl/index.ts';
import { prove, type ProofResult } from '../../src/hdl/formal/index.ts';
import { PropertyFailedError, compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { Testbench } from '../../src/hdl/testbench/index.ts';
import { tempDir } from '../tempDir.ts';
import { Decade, type Variant } from './fixtures/decade.ts';
import { Pair } from './fixtures/pair.ts';
import { TwoClocks } from './fixtures/twoClocks.ts';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const decadeFile = join(fixtures, 'decade.ts');
/** The line of a fixture's first line containing `text`. */
const lineOf = (file: string, text: string) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;
const digitLine = lineOf(decadeFile, "name: 'digit'");

const decade = (variant: Variant): Design => elaborate(Decade, { variant }).design;

/** A proof into a temporary directory, its counterexample written as a testbench importing the fixture. */
async function proveDecade(variant: Variant, mode: 'bmc' | 'prove' | 'cover', depth = 20): Promise<ProofResult> {
  const r = await prove(decade(variant), { mode, depth, dir: tempDir('prove'), source: { file: decadeFile, exportName: 'Decade', params: { variant } } });
  // Each proof of these small designs takes well under a second: CI runs them all.
  expect(r.seconds).toBeLessThan(10);
  return r;
}

/** Runs a counterexample testbench file as `rtgpu sim` does (default: on the TS simulator); returns what it threw. */
async function replay(file: string, backend?: 'verilator' | 'icarus'): Promise<unknown> {
  const tb = (await import(pathToFileURL(file).href)) as { DesignUnderTest: never; params: never; maxCycles: number; default: (tb: Testbench) => Promise<void> };
  const design = elaborate(tb.DesignUnderTest, tb.params).design;
  const sim = backend ? await compileSimulator(design, { backend }) : compileSimulator(design);
  try {
    const bench = new Testbench(sim);
    return await bench.run(() => tb.default(bench), { maxCycles: tb.maxCycles }).then(
      () => undefined,
      (e: unknown) => e,
    );
  } finally {
    sim.close();
  }
}
const replayOnTs = (file: string) => replay(file);

describe('proofs of a decade counter', () => {
  test('a true, inductive assertion is proven; bmc alone says bounded', async () => {
    const proven = await proveDecade('good', 'prove');
    expect(proven).toMatchObject({ status: 'proven', mode: 'prove', depth: 20, top: 'Decade_variant_good' });
    expect(proven.property).toBeUndefined();
    expect(proven.induction).toBeUndefined();
    const bounded = await proveDecade('good', 'bmc');
    expect(bounded.status).toBe('bounded');
  });

  test('a true assertion that is not inductive is bounded, not proven, and names the assertion induction cannot show', async () => {
    const r = await proveDecade('weak', 'prove');
    expect(r.status).toBe('bounded');
    expect(r.induction!.property).toEqual({ name: 'Decade_variant_weak.neverTwelve', path: 'neverTwelve', kind: 'assert', where: `decade.ts:${lineOf(decadeFile, "name: 'neverTwelve'")}`, message: 'never twelve' });
    expect(readFileSync(r.induction!.vcd, 'utf8')).toContain('$enddefinitions');
  });

  test('a broken counter fails at the edge ending cycle 10, and its testbench fails on TS with the same property at the same cycle', async () => {
    const r = await proveDecade('broken', 'prove');
    expect(r.status).toBe('failed');
    expect(r.property).toEqual({ name: 'Decade_variant_broken.digit', path: 'digit', kind: 'assert', where: `decade.ts:${digitLine}`, message: 'a decimal digit' });
    const cex = r.counterexample!;
    // Ten enabled edges from power-on, out of reset, take it to 10: the shortest failure.
    expect(cex).toMatchObject({ unit: 'cycle', steps: 11, failingStep: 10 });
    expect(cex.trace.inputs).toEqual(['rst_n', 'en', 'clear']);
    expect(cex.trace.values.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => [1n, 1n, 0n]));
    expect(readFileSync(cex.vcd, 'utf8')).toMatch(/\$var wire 4 \S+ count \$end/);
    const e = (await replayOnTs(cex.testbench!)) as PropertyFailedError;
    expect(e).toBeInstanceOf(PropertyFailedError);
    expect({ property: e.property, where: e.where, cycle: e.cycle, values: e.values }).toEqual({ property: r.property!.name, where: r.property!.where, cycle: 10, values: { count_1: 10n } });
  });

  test('an assumption on the inputs makes the failing assertion hold', async () => {
    expect((await proveDecade('assumed', 'prove')).status).toBe('proven');
  });

  test('covers: a reachable one with its cycle and trace, an unreachable one named with its line', async () => {
    const r = await proveDecade('good', 'cover');
    expect(r.status).toBe('unreachable');
    const [seven, eleven] = r.covers!;
    expect(seven).toMatchObject({ property: { name: 'Decade_variant_good.seven', path: 'seven', kind: 'cover', where: `decade.ts:${lineOf(decadeFile, "'seven'")}` }, reached: true, step: 7 });
    expect(readFileSync(seven!.vcd!, 'utf8')).toContain('$enddefinitions');
    expect(eleven).toEqual({ property: { name: 'Decade_variant_good.eleven', path: 'eleven', kind: 'cover', where: `decade.ts:${lineOf(decadeFile, "'eleven'")}` }, reached: false });
  });
});

describe('hierarchy and power-on', () => {
  const pairFile = join(fixtures, 'pair.ts');

  test('a failure names its instance; covers of two instances are told apart; an asynchronous reset holds its register from power-on', async () => {
    const design = elaborate(Pair, {}).design;
    const dir = tempDir('prove-pair');
    const r = await prove(design, { mode: 'bmc', depth: 8, dir, source: { file: pairFile, exportName: 'Pair', fileParams: true } });
    // Only u1 sees 15; `level` starts at its reset value 5 as on every simulator, so neverZero holds.
    expect(r.status).toBe('failed');
    expect(r.property).toMatchObject({ name: 'Pair.u1.notFifteen', where: `pair.ts:${lineOf(pairFile, "name: 'notFifteen'")}` });
    expect(r.counterexample).toMatchObject({ failingStep: 1 });
    const { inputs, values } = r.counterexample!.trace;
    expect(values[0]![inputs.indexOf('d')]).toBe(15n);
    expect(readFileSync(join(dir, 'Pair.sv'), 'utf8')).toMatch(/initial begin\s+level_1 = 4'd5;/);
    const e = (await replayOnTs(r.counterexample!.testbench!)) as PropertyFailedError;
    expect([e.property, e.cycle]).toEqual(['Pair.u1.notFifteen', 1]);
    const text = readFileSync(r.counterexample!.testbench!, 'utf8');
    expect(text).toMatch(/^import \{ Pair as DesignUnderTest, params as fileParams \} from '\.\.\/\S*\/test\/formal\/fixtures\/pair\.ts';$/m);
    expect(text).toContain('export const params = { ...fileParams };');

    const covers = await prove(design, { mode: 'cover', depth: 4, dir: tempDir('prove-pair') });
    expect(covers.status).toBe('covered');
    expect(covers.covers!.map((c) => [c.property.name, c.step])).toEqual([
      ['Pair.u0.five', 1],
      ['Pair.u1.five', 1],
    ]);
  });
});

describe('several clocks: the solver drives them, instant by instant', () => {
  const file = join(fixtures, 'twoClocks.ts');

  test('a counterexample sets the clock levels of each instant (all low at power-on) and replays on TS, Verilator and Icarus to the same failure', async () => {
    const r = await prove(elaborate(TwoClocks, { broken: true }).design, { mode: 'bmc', depth: 10, dir: tempDir('prove-clocks'), source: { file, exportName: 'TwoClocks', params: { broken: true } } });
    expect(r).toMatchObject({ status: 'failed', unit: 'instant', property: { name: 'TwoClocks_broken1.aBelowNine', where: `twoClocks.ts:${lineOf(file, "name: 'aBelowNine'")}` } });
    // 9 on x, a rises (ra takes it), a falls, a rises again: the check of that edge fails.
    const cex = r.counterexample!;
    expect(cex).toMatchObject({ unit: 'instant', steps: 4, failingStep: 3 });
    expect(cex.trace.clocks!.names).toEqual(['a', 'b']);
    expect(cex.trace.clocks!.levels[0]).toEqual([0, 0]);
    expect(cex.trace.clocks!.levels.map((l) => l[0])).toEqual([0, 1, 0, 1]);
    expect(cex.trace.values[0]).toEqual([9n]);
    for (const backend of [undefined, 'verilator', 'icarus'] as const) {
      const e = (await replay(cex.testbench!, backend)) as PropertyFailedError;
      expect(e, `${backend ?? 'ts'}: ${String(e)}`).toBeInstanceOf(PropertyFailedError);
      expect([e.property, e.values], backend ?? 'ts').toEqual([r.property!.name, { ra: 9n }]);
    }
  }, 120_000);

  test('an assertion sampled at the edges of one clock is bounded, not proven: induction may run without that clock', async () => {
    const r = await prove(elaborate(TwoClocks, { broken: false }).design, { mode: 'prove', depth: 10, dir: tempDir('prove-clocks') });
    expect(r).toMatchObject({ status: 'bounded', unit: 'instant' });
    expect(r.induction!.property!.path).toMatch(/^[ab]BelowNine$/);
  });
});

describe('the counterexample on Verilator and Icarus', () => {
  /** Plays the trace's inputs up to the failing edge; returns the engine, stopped just before it. */
  function playUntilFailingEdge(sim: Simulator, r: ProofResult, reference: Simulator): void {
    const { trace, failingStep: failingCycle } = r.counterexample!;
    const outputs = sim.ports.filter((p) => p.direction === 'output').map((p) => p.name);
    for (let cycle = 0; cycle <= failingCycle; cycle++) {
      trace.inputs.forEach((name, i) => (sim.poke(name, trace.values[cycle]![i]!), reference.poke(name, trace.values[cycle]![i]!)));
      for (const o of outputs) expect(sim.peek(o), `${o} at cycle ${cycle}`).toBe(reference.peek(o));
      if (cycle < failingCycle) (sim.step(), reference.step());
    }
  }

  test('the inputs replayed: every output as on TS each cycle, the signals of the assertion at the failing cycle as TS reports them, and the same failure at its edge', async () => {
    const design = decade('broken');
    const r = await proveDecade('broken', 'bmc');
    const e = (await replayOnTs(r.counterexample!.testbench!)) as PropertyFailedError;
    for (const backend of ['verilator', 'icarus'] as const) {
      const sim = await compileSimulator(design, { backend, registers: true });
      const reference = compileSimulator(design, { backend: 'js' });
      try {
        playUntilFailingEdge(sim, r, reference);
        for (const [name, value] of Object.entries(e.values)) expect(sim.peek(name), `${backend}: ${name} at cycle ${e.cycle}`).toBe(value);
        // The failing edge stops the engine with the same failure.
        const failed = (() => {
          try {
            sim.step();
          } catch (err) {
            return err as PropertyFailedError;
          }
          throw new Error(`${backend}: the failing edge passed`);
        })();
        expect(failed, failed.message).toBeInstanceOf(PropertyFailedError);
        expect([failed.property, failed.where, failed.cycle]).toEqual([e.property, e.where, e.cycle]);
      } finally {
        sim.close();
        reference.close();
      }
    }
  }, 120_000);
});

describe('designs the formal flow refuses', () => {
  test('no properties, no assertions to prove, no covers to reach, a bad depth', async () => {
    const Plain = defineModule('FormalPlain', () => ({ a: input(Bool), y: output(Bool) }), (m, io) => io.y.set(io.a));
    await expect(prove(elaborate(Plain, undefined).design)).rejects.toThrow(/^FormalPlain has no properties to prove: state them in the design with m\.assert/);
    const CoverOnly = defineModule('FormalCoverOnly', () => ({ a: input(Bool) }), (m, io) => m.cover(io.a, 'high'));
    await expect(prove(elaborate(CoverOnly, undefined).design)).rejects.toThrow("FormalCoverOnly has no assertions (m.assert) to prove; its 1 cover points are checked with mode 'cover'");
    const AssertOnly = defineModule('FormalAssertOnly', () => ({ a: input(Bool) }), (m, io) => m.assert(io.a.or(io.a.not())));
    await expect(prove(elaborate(AssertOnly, undefined).design, { mode: 'cover' })).rejects.toThrow("FormalAssertOnly has no cover points (m.cover) to reach; its 1 assertions are checked with mode 'bmc' or 'prove'");
    await expect(prove(decade('good'), { depth: 0 })).rejects.toThrow('prove: depth must be an integer from 1 to 10000, got 0');
  });
});
