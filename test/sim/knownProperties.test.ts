// X checks: m.assertKnown / m.assumeKnown and the `bits_known` rule of every Irrevocable port. A four-state
// engine (Icarus) fails one where a value has X or Z bits, naming the TypeScript line and printing the value;
// two-state engines (the TS simulator, Verilator) and the formal flow cannot see X, so there it holds, and
// lockstep reports Icarus's failure as the design's, not as a disagreement between the engines.
import { describe, expect, test } from 'vitest';
import { Bool, Bundle, Irrevocable, UInt, defineBlackBox, defineModule, elaborate, emitSystemVerilog, input, output, type Design } from '../../src/hdl/index.ts';
import { HdlError } from '../../src/hdl/index.ts';
import { PropertyFailedError, compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { prove } from '../../src/hdl/formal/index.ts';

const pipePorts = () => ({ in_valid: input(Bool), in_bits: input(UInt(8)), out_valid: output(Bool), out_bits: output(UInt(8)), debug: output(UInt(4)) });

/** x_pipe.v in the eDSL (its payload register starts at 0 here, X in the Verilog until the first beat). */
const PipeModel = defineModule('XPipeModel', pipePorts, (m, io) => {
  const valid = m.reg(Bool, { reset: 0 });
  const bits = m.reg(UInt(8));
  valid.set(io.in_valid);
  m.when(io.in_valid, () => bits.set(io.in_bits));
  io.out_valid.set(valid);
  io.out_bits.set(bits);
  io.debug.set(0);
});

const XPipe = defineBlackBox('x_pipe', pipePorts, { sources: ['../hdl/fixtures/x_pipe.v'], clock: 'clk', reset: 'rst', resetActive: 'high', model: PipeModel });

/**
 * A producer that offers vendor IP's payload register on an Irrevocable port, with a bug: `start` raises
 * valid whether or not a word was ever loaded, and the Verilog's payload is X until then.
 */
const XProducer = defineModule(
  'XProducer',
  () => ({ start: input(Bool), load: input(Bool), value: input(UInt(8)), out: output(Irrevocable(UInt(8))) }),
  (m, io) => {
    const pipe = m.instance(XPipe, undefined);
    pipe.io.in_valid.set(io.load);
    pipe.io.in_bits.set(io.value);
    const valid = m.reg(Bool, { reset: 0 });
    io.out.valid.set(valid);
    io.out.bits.set(pipe.io.out_bits);
    m.when(io.out.fire, () => valid.set(false)).elsewhen(io.start, () => valid.set(true));
  },
);

const Pair = Bundle({ a: UInt(4), b: Bool });

/** m.assertKnown on a Bundle under an enable (x_pipe.v's `debug` is X), and m.assumeKnown on an input. */
const KnownChecks = defineModule(
  'KnownChecks',
  () => ({ en: input(Bool), x: input(UInt(4)), y: output(UInt(4)) }),
  (m, io) => {
    const pipe = m.instance(XPipe, undefined);
    pipe.io.in_valid.set(false);
    pipe.io.in_bits.set(0);
    const pair = m.wire(Pair);
    pair.a.set(pipe.io.debug);
    pair.b.set(io.en);
    io.y.set(io.x);
    m.assertKnown(pair, 'the pair is known while en', { name: 'pair_known', enable: io.en });
    m.assumeKnown(io.x, 'x is driven', { name: 'x_driven' });
  },
);

const xProducer = (): Design => elaborate(XProducer, {}).design;


/** Out of reset (cycle 1); `load` writes the word (or not); `start` in cycle 3 raises valid for the edge ending cycle 4 on; never taken. */
function drive(sim: Simulator, load: boolean): void {
  sim.reset();
  sim.poke('value', 0x5a);
  sim.poke('load', load ? 1 : 0);
  sim.poke('start', 0);
  sim.poke('out_ready', 0);
  sim.step(2);
  sim.poke('load', 0);
  sim.poke('start', 1);
  sim.step(1);
  sim.poke('start', 0);
  sim.step(3);
}

describe('X checks', () => {
  test('every Irrevocable output gets a bits_known assertion, in the simulators\' block and not in the formal one', () => {
    const sv = emitSystemVerilog(xProducer()).files.find((f) => f.path === 'XProducer.sv')!.text;
    const sim = sv.slice(sv.indexOf('`ifndef FORMAL'), sv.indexOf('`ifdef FORMAL'));
    const formal = sv.slice(sv.indexOf('`ifdef FORMAL'));
    expect(sim).toMatch(/\$isunknown\(out_bits\)\) \$error\("knownProperties\.test\.ts:\d+: assertion XProducer\.out_bits_known failed: XProducer drives 'out': bits have no X or Z bit while valid \(out_bits = 8'h%h\)", out_bits\);/);
    expect(formal).not.toContain('isunknown');
    expect(formal).toContain('assert');
  });

  test('Icarus fails it where the word was never written, with the TS line and the X value; the two-state engines hold', async () => {
    for (const backend of ['js', 'wasm', 'verilator'] as const) {
      const sim = await compileSimulator(xProducer(), { backend });
      try {
        drive(sim, false);
        expect(sim.peek('out_valid'), backend).toBe(1n);
      } finally {
        sim.close();
      }
    }
    const icarus = await compileSimulator(xProducer(), { backend: 'icarus' });
    try {
      let failure: unknown;
      try {
        drive(icarus, false);
      } catch (e) {
        failure = e;
      }
      expect(failure).toBeInstanceOf(PropertyFailedError);
      const e = failure as PropertyFailedError;
      expect(e.property).toBe('XProducer.out_bits_known');
      expect(e.where).toMatch(/^knownProperties\.test\.ts:\d+$/);
      expect(e.cycle).toBe(4);
      expect(e.unknownValues).toEqual({ out_bits: "8'hxx" });
      expect(e.message).toContain("out_bits = 8'hxx");
    } finally {
      icarus.close();
    }
  });

  test('lockstep reports the X as the design\'s failure on icarus, not as a disagreement', async () => {
    const sim = await compileSimulator(xProducer(), { backend: 'lockstep' });
    try {
      let failure: unknown;
      try {
        drive(sim, false);
      } catch (e) {
        failure = e;
      }
      expect(failure).toBeInstanceOf(PropertyFailedError);
      const e = failure as PropertyFailedError;
      expect(e.engines).toEqual(['icarus']);
      expect(e.message).toMatch(/assertion XProducer\.out_bits_known failed: .* at the clock edge ending cycle 4 on icarus\n {2}out_bits = 8'hxx$/);
    } finally {
      sim.close();
    }
  });

  test('a word written before valid rises passes on every engine', async () => {
    for (const backend of ['js', 'icarus', 'lockstep'] as const) {
      const sim = await compileSimulator(xProducer(), { backend });
      try {
        drive(sim, true);
        expect(sim.peek('out_bits'), backend).toBe(0x5an);
      } finally {
        sim.close();
      }
    }
  });

  test('m.assertKnown on a Bundle under an enable; m.assumeKnown on an input', async () => {
    const design = elaborate(KnownChecks, {}).design;
    const sv = emitSystemVerilog(design).files.find((f) => f.path === 'KnownChecks.sv')!.text;
    expect(sv).toMatch(/if \(rst_n && \$isunknown\(x\)\) \$error\("knownProperties\.test\.ts:\d+: assumption KnownChecks\.x_driven failed: x is driven \(x = 4'h%h\)", x\);/);
    const failure = async (en: number): Promise<PropertyFailedError | undefined> => {
      const sim = await compileSimulator(design, { backend: 'icarus' });
      try {
        sim.reset();
        sim.poke('x', 3);
        sim.poke('en', 0);
        sim.step(2);
        sim.poke('en', en);
        sim.step(2);
      } catch (e) {
        if (e instanceof PropertyFailedError) return e;
        throw e;
      } finally {
        sim.close();
      }
      return undefined;
    };
    expect(await failure(0)).toBeUndefined();
    const e = await failure(1);
    expect(e?.property).toBe('KnownChecks.pair_known');
    expect(e?.cycle).toBe(3);
    expect(e?.values).toEqual({ pair_b: 1n });
    expect(e?.unknownValues).toEqual({ pair_a: "4'hx" });
  });

  test('misuse is a named error at the call', () => {
    const Bad = defineModule('BadKnown', () => ({ a: input(UInt(4)) }), (m) => {
      m.assertKnown(5 as never);
    });
    expect(() => elaborate(Bad, {})).toThrow(HdlError);
    expect(() => elaborate(Bad, {})).toThrow(/knownProperties\.test\.ts:\d+.*m\.assertKnown\(\) takes a hardware value/s);
  });

  test('rtgpu prove leaves X checks out: a design with only X checks has nothing to prove', async () => {
    const Only = defineModule('OnlyKnown', () => ({ a: input(UInt(4)) }), (m, io) => {
      m.assertKnown(io.a);
    });
    await expect(prove(elaborate(Only, {}).design)).rejects.toThrow(/has no properties to prove/);
  });
});
