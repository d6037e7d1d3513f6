// A checker module bound to a module of the design (as SystemVerilog's bind): instantiated in every instance, reading its ports by name; its properties run on every engine.
import { describe, expect, test } from 'vitest';
import { Bool, Bundle, Decoupled, UInt, defineModule, elaborate, emitSystemVerilog, flattenDesign, input, output } from '../../src/hdl/index.ts';
import { Fifo } from '../../src/hdl/lib/index.ts';
import { PropertyFailedError, compileSimulator } from '../../src/hdl/sim/index.ts';
import { hdlErrorOf } from './markers.ts';
import { expectLintClean } from './lintClean.ts';

/** Reads a FIFO's ports and says what a user expects of it: a full FIFO refuses words, the count never passes `max`. */
const FifoChecker = defineModule(
  'FifoChecker',
  (p: { max: number }) => ({ full: input(Bool), count: input(UInt(5)), enq: input(Bundle({ valid: Bool, ready: Bool, bits: UInt(8) })) }),
  (m, io, p) => {
    m.assert(m.implies(io.full, io.enq.ready.not()), 'a full FIFO refuses words', { name: 'full_refuses' });
    m.assert(io.count.le(p.max), `the count stays at most ${p.max}`, { name: 'count_max' });
    m.cover(io.full, 'filled');
  },
);

const Top = defineModule('BindTop', () => ({ enq: input(Decoupled(UInt(8))), deq: output(Decoupled(UInt(8))), level: output(UInt(5)) }), (m, io) => {
  const a = m.instance(Fifo, { width: 8, depth: 16 }, { name: 'a' });
  const b = m.instance(Fifo, { width: 8, depth: 16 }, { name: 'b' });
  m.connect(a.io.enq, io.enq);
  m.connect(b.io.enq, a.io.deq);
  m.connect(io.deq, b.io.deq);
  io.level.set(a.io.count);
});

describe('checkers bound to a module', () => {
  test('every instance gets the checker, reading its ports; its properties run; the SV instantiates it, lint-clean', async () => {
    const { design } = elaborate(Top, undefined, { bind: [{ module: Fifo, checker: FifoChecker, params: (p: { depth: number }) => ({ max: p.depth - 4 }) }] });
    const flat = flattenDesign(design);
    expect(flat.properties!.map((p) => p.name).filter((n) => n.includes('FifoChecker'))).toEqual(['a.FifoChecker_bound.full_refuses', 'a.FifoChecker_bound.count_max', 'a.FifoChecker_bound.filled', 'b.FifoChecker_bound.full_refuses', 'b.FifoChecker_bound.count_max', 'b.FifoChecker_bound.filled']);
    const fifoSv = emitSystemVerilog(design).files.find((f) => f.path.startsWith('Fifo_'))!.text;
    expect(fifoSv).toMatch(/FifoChecker_max12 FifoChecker_bound \(/);
    await expectLintClean(design);
    // The checker's limit (12 of 16) is stricter than the FIFO: filling it past 12 fails in the first FIFO.
    const sim = compileSimulator(design);
    sim.reset();
    sim.poke('enq_valid', 1);
    sim.poke('deq_ready', 0);
    let failure: PropertyFailedError | undefined;
    try {
      sim.step(40);
    } catch (e) {
      failure = e as PropertyFailedError;
    }
    expect(failure).toBeInstanceOf(PropertyFailedError);
    expect(failure!.property).toBe('BindTop.b.FifoChecker_bound.count_max');
    sim.close();
  });

  test('without the binding the design is unchanged', () => {
    const plain = elaborate(Top, undefined).design;
    expect(flattenDesign(plain).properties!.some((p) => p.name.includes('FifoChecker'))).toBe(false);
  });

  test('a checker that writes, or reads a port the module lacks, is an error naming the checker', () => {
    const Writes = defineModule('WritesChecker', () => ({ full: input(Bool), flag: output(Bool) }), (m, io) => io.flag.set(io.full));
    const Missing = defineModule('MissingChecker', () => ({ nothere: input(Bool) }), (m, io) => m.assert(io.nothere));
    expect(hdlErrorOf(() => elaborate(Top, undefined, { bind: [{ module: Fifo, checker: Writes }] })).message).toMatch(/checker WritesChecker has the output 'flag': a bound checker only reads/);
    expect(hdlErrorOf(() => elaborate(Top, undefined, { bind: [{ module: Fifo, checker: Missing }] })).message).toMatch(/checker MissingChecker reads 'nothere', which module Fifo_depth16_width8 has no port of/);
  });
});
