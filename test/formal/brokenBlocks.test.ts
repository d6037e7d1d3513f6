// Broken copies of the library's blocks (issue 41, item 6): `rtgpu prove` finds each bug with a counterexample, and
// its testbench fails with the same property at the same cycle on the TS simulator, Verilator and Icarus.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { elaborate, type ModuleDef } from '../../src/hdl/index.ts';
import { prove } from '../../src/hdl/formal/index.ts';
import { PropertyFailedError, compileSimulator } from '../../src/hdl/sim/index.ts';
import { Testbench } from '../../src/hdl/testbench/index.ts';
import { tempDir } from '../tempDir.ts';
import { DoubleGrantArbiter } from './fixtures/doubleGrantArbiter.ts';
import { OffByOneFifo } from './fixtures/offByOneFifo.ts';
import { WithdrawingProducer } from './fixtures/withdrawingProducer.ts';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** The first line of a fixture containing `text`. */
const lineOf = (file: string, text: string) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

/** Runs a counterexample testbench file as `rtgpu sim` does on one engine; returns the failure it threw. */
async function replay(file: string, backend: 'js' | 'verilator' | 'icarus'): Promise<PropertyFailedError> {
  const tb = (await import(pathToFileURL(file).href)) as { DesignUnderTest: never; params: never; maxCycles: number; default: (tb: Testbench) => Promise<void> };
  const design = elaborate(tb.DesignUnderTest, tb.params).design;
  const sim = backend === 'js' ? compileSimulator(design, { backend }) : await compileSimulator(design, { backend });
  try {
    const bench = new Testbench(sim);
    const thrown = await bench.run(() => tb.default(bench), { maxCycles: tb.maxCycles }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(thrown, `${backend}: ${String(thrown)}`).toBeInstanceOf(PropertyFailedError);
    return thrown as PropertyFailedError;
  } finally {
    sim.close();
  }
}

interface Case {
  readonly bug: string;
  readonly file: string;
  readonly exportName: string;
  readonly def: ModuleDef<never, never>;
  readonly params: Record<string, unknown>;
  /** The property the bug breaks, and the text of the line that declares it (a port's rules: the module's definition). */
  readonly path: string;
  readonly line: string;
  /** The shortest failure, counted as the simulators count cycles. */
  readonly cycle: number;
}

const cases: Case[] = [
  // Five words in, none out: the fifth is taken into a FIFO of four, and the next edge sees a count of 5.
  { bug: 'a FIFO whose full flag is one word late', file: 'offByOneFifo.ts', exportName: 'OffByOneFifo', def: OffByOneFifo as never, params: { depth: 4 }, path: 'count_in_range', line: "name: 'count_in_range'", cycle: 5 },
  // Started at cycle 0, valid from cycle 1, withdrawn at the edge ending cycle 2 without a transfer: cycle 3 sees it low.
  { bug: 'a producer that takes back valid', file: 'withdrawingProducer.ts', exportName: 'WithdrawingProducer', def: WithdrawingProducer as never, params: {}, path: 'out_valid_held', line: 'defineModule(', cycle: 3 },
  // `last` powers on at 0 (its reset value 2 is taken at the first reset): requesters 0 and 1 at once at the first
  // edge, 1 is granted and 0 is made ready too.
  { bug: 'an arbiter that grants two requesters', file: 'doubleGrantArbiter.ts', exportName: 'DoubleGrantArbiter', def: DoubleGrantArbiter as never, params: { n: 3 }, path: 'one_grant', line: "name: 'one_grant'", cycle: 0 },
];

describe('broken blocks: found by rtgpu prove, the counterexample failing alike on every engine', () => {
  for (const c of cases) {
    test(c.bug, async () => {
      const file = join(fixtures, c.file);
      const design = elaborate(c.def, c.params as never).design;
      const r = await prove(design, { mode: 'prove', depth: 10, dir: tempDir('prove-broken'), source: { file, exportName: c.exportName, params: c.params } });
      expect(r.seconds).toBeLessThan(10);
      expect(r.status).toBe('failed');
      expect(r.property).toMatchObject({ name: `${design.top}.${c.path}`, path: c.path, kind: 'assert', where: `${c.file}:${lineOf(file, c.line)}` });
      expect(r.counterexample!.failingStep).toBe(c.cycle);
      for (const backend of ['js', 'verilator', 'icarus'] as const) {
        const e = await replay(r.counterexample!.testbench!, backend);
        expect([e.property, e.where, e.cycle], backend).toEqual([r.property!.name, r.property!.where, c.cycle]);
      }
    }, 120_000);
  }
});
