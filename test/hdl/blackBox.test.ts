// Verilog black boxes: emitted as instances with parameter overrides beside their sources, run as their
// TypeScript models on the TS simulator and as their Verilog on Verilator and Icarus, read by Yosys.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Bool, HdlError, UInt, defineBlackBox, defineModule, elaborate, input, lit, output, type Design, type ModuleDef } from '../../src/hdl/index.ts';
import { clog2 } from '../../src/hdl/lib/clog2.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { manifestModules } from '../../src/hdl/emit/manifest.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { withSourceLines } from '../../src/hdl/cosim/index.ts';
import { unwaivedIcarusOutput } from '../../src/hdl/emit/index.ts';
import { synthesize } from '../../src/hdl/synth/synthesize.ts';
import { LockstepMismatchError, compileSimulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { markerLine } from './markers.ts';

const seed = seedFromEnv();
console.log(`blackBox.test seed=${seed} (rerun with SEED=${seed})`);
const thisFile = fileURLToPath(import.meta.url);
/** Verilator and Icarus build on a cold cache. */
const BUILD_TIMEOUT = 300_000;
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const popcountPorts = (p: { width: number }) => ({ a: input(UInt(p.width)), n: output(UInt(clog2(p.width + 1))) });

/** The model of popcount.sv; with `dropTopBit` it is wrong whenever the top bit is set. */
const popcountModel = (name: string, dropTopBit: boolean) =>
  defineModule(name, popcountPorts, (m, io, p) => {
    const w = clog2(p.width + 1);
    let count = lit(0, w);
    for (let i = 0; i < p.width - (dropTopBit ? 1 : 0); i++) count = count.add(io.a.bit(i).zext(w));
    io.n.set(count);
  });

const popcount = (model?: ModuleDef<{ width: number }, any>) =>
  defineBlackBox('popcount', popcountPorts, { sources: ['./fixtures/popcount.sv'], parameters: (p) => ({ WIDTH: p.width }), model });

const regAdderPorts = (p: { width: number }) => ({ en: input(Bool), a: input(UInt(p.width)), b: input(UInt(p.width)), sum: output(UInt(p.width + 1)) });

const RegAdderModel = defineModule('RegAdderModel', regAdderPorts, (m, io, p) => {
  const sum = m.reg(UInt(p.width + 1), { reset: 0 });
  m.when(io.en, () => sum.set(io.a.addw(io.b)));
  io.sum.set(sum);
});

const RegAdder = defineBlackBox('reg_adder', regAdderPorts, {
  sources: ['./fixtures/reg_adder.sv'],
  parameters: (p) => ({ WIDTH: p.width }),
  clock: 'clock',
  reset: 'resetn',
  model: RegAdderModel,
});

/** Two parameterizations of popcount and a registered adder, under one top named bb_demo. */
function demoDesign(popcountDef: ReturnType<typeof popcount>): Design {
  const Demo = defineModule(
    'BbDemo',
    () => ({ x: input(UInt(16)), en: input(Bool), ones: output(UInt(5)), onesLow: output(UInt(4)), sum: output(UInt(9)), total: output(UInt(10)) }),
    (m, io) => {
      const pc = m.instance(popcountDef, { width: 16 });
      pc.io.a.set(io.x);
      const pcLow = m.instance(popcountDef, { width: 8 });
      pcLow.io.a.set(io.x.bits(7, 0));
      const adder = m.instance(RegAdder, { width: 8 });
      adder.io.en.set(io.en);
      adder.io.a.set(io.x.bits(7, 0));
      adder.io.b.set(io.x.bits(15, 8));
      io.ones.set(pc.io.n);
      io.onesLow.set(pcLow.io.n);
      io.sum.set(adder.io.sum);
      io.total.set(adder.io.sum.addw(pc.io.n));
    },
  );
  return elaborate(Demo, undefined, { topName: 'bb_demo' }).design;
}

const design = demoDesign(popcount(popcountModel('PopcountModel', false)));
const rtl = (d: Design) => {
  const e = emitSystemVerilog(d);
  return { top: d.top, files: e.files, fileList: e.fileList };
};

/** Random rows of (rst_n, x, en): reset now and then, so that the adder's reset is compared too. */
function stimulus(cycles: number): Uint32Array {
  const rng = createRng(seed);
  const rows = new Uint32Array(3 * cycles);
  for (let c = 0; c < cycles; c++) rows.set([rng.int(50) === 0 ? 0 : 1, rng.int(0x10000), rng.int(4) === 0 ? 0 : 1], 3 * c);
  return rows;
}

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

const bitsSet = (x: number) => x.toString(2).replaceAll('0', '').length;

describe('black boxes', () => {
  test('emitted: the sources first in the file list, instances with parameter overrides, no module of their own', () => {
    const e = emitSystemVerilog(design);
    expect(e.fileList).toEqual(['popcount.sv', 'reg_adder.sv', 'bb_demo.sv']);
    expect(e.files.map((f) => f.path)).toEqual(['popcount.sv', 'reg_adder.sv', 'bb_demo.sv']);
    expect(e.files[0]!.text).toBe(fixture('popcount.sv'));
    const top = e.files[2]!.text.replace(/ \/\/ blackBox\.test\.ts:\d+/g, '');
    expect(top).toContain('  popcount #(.WIDTH(16)) pc (\n    .a(pc_a),\n    .n(pc_n)\n  );');
    expect(top).toContain('  popcount #(.WIDTH(8)) pcLow (\n    .a(pcLow_a),\n');
    expect(top).toContain('  reg_adder #(.WIDTH(8)) adder (\n    .clock(clk),\n    .resetn(rst_n),\n    .en(adder_en),\n');
  });

  test('the manifest lists them with their sources and parameter overrides', () => {
    const modules = manifestModules(design, 'out');
    expect(modules.map((m) => m.name)).toEqual(['popcount', 'popcount', 'reg_adder', 'bb_demo']);
    expect(modules[0]).toMatchObject({ file: 'out/popcount.sv', parameters: { width: 16 }, blackBox: { sources: ['out/popcount.sv'], parameters: { WIDTH: 16 } } });
    expect(modules[2]!.ports.map((p) => p.name)).toEqual(['clock', 'resetn', 'en', 'a', 'b', 'sum']);
    expect(modules[3]).toMatchObject({ submodules: ['popcount', 'reg_adder'] });
    expect(modules[3]!.blackBox).toBeUndefined();
  });

  test('verilator --lint-only -Wall is clean on the design with its sources', async () => {
    const lint = await verilatorLint(rtl(design));
    expect(lint.output).toBe('');
    expect(lint.ok).toBe(true);
  }, BUILD_TIMEOUT);

  test('lockstep: the models on the TS simulator agree with the Verilog on Verilator and Icarus', async () => {
    const sim = await compileSimulator(design, { backend: 'lockstep', backends: ['wasm', 'js', 'verilator', 'icarus'] });
    try {
      sim.reset();
      const cycles = 3000;
      const rows = stimulus(cycles);
      const out = sim.runVectors(['rst_n', 'x', 'en'], ['ones', 'onesLow'], rows, cycles);
      for (let c = 0; c < cycles; c++) {
        expect(out[2 * c]).toBe(bitsSet(rows[3 * c + 1]!));
        expect(out[2 * c + 1]).toBe(bitsSet(rows[3 * c + 1]! & 0xff));
      }
      expect(sim.cycle).toBe(cycles + 1);
    } finally {
      sim.close();
    }
  }, BUILD_TIMEOUT);

  test('lockstep catches a model that differs from its Verilog', async () => {
    const wrong = demoDesign(popcount(popcountModel('PopcountModel', true)));
    const sim = await compileSimulator(wrong, { backend: 'lockstep', backends: ['js', 'verilator'], historyCycles: 4 });
    try {
      sim.reset();
      const mismatch = thrown(() => sim.runVectors(['rst_n', 'x', 'en'], [], stimulus(200), 200));
      expect(mismatch).toBeInstanceOf(LockstepMismatchError);
      // A popcount's output (and the total fed by one) differs once the top bit of its input is set.
      expect(mismatch.message).toMatch(/^lockstep mismatch at cycle \d+ on bb_demo\.(ones|onesLow|total) /);
    } finally {
      sim.close();
    }
  }, BUILD_TIMEOUT);

  test('without a model the TS simulator refuses, naming the black box and the instance; Verilator runs it', async () => {
    const noModel = demoDesign(popcount());
    for (const backend of ['js', 'wasm'] as const) {
      expect(() => compileSimulator(noModel, { backend })).toThrow(
        "error[BlackBoxModel]: the TS simulator cannot run black box 'popcount' (instance 'pc'): it has no TypeScript model; give defineBlackBox a { model }, or simulate on verilator or icarus",
      );
    }
    const sim = await compileSimulator(noModel, { backend: 'verilator' });
    sim.poke('x', 0xf0f1);
    expect(sim.peek('ones')).toBe(9n);
    sim.close();
  }, BUILD_TIMEOUT);

  test('a source that does not exist is an error naming the file and the declaration', () => {
    const Missing = defineBlackBox('missing', () => ({ a: input(Bool), y: output(Bool) }), { sources: ['./fixtures/missing.sv'] }); // @mark:missing
    const User = defineModule('UsesMissing', () => ({ a: input(Bool), y: output(Bool) }), (m, io) => {
      const u = m.instance(Missing, undefined);
      u.io.a.set(io.a);
      io.y.set(u.io.y);
    });
    const run = () => elaborate(User, undefined);
    expect(run).toThrow(HdlError);
    expect(run).toThrow(`${thisFile}:${markerLine(thisFile, 'missing')}:`);
    expect(run).toThrow(/error\[BlackBoxSource\]: cannot read '.*\/test\/hdl\/fixtures\/missing\.sv', a Verilog source of black box 'missing': no such file/);
  });

  test('a model whose ports differ is an error naming both declarations', () => {
    const BadModel = defineModule('BadPopcountModel', (p: { width: number }) => ({ a: input(UInt(p.width)), n: output(UInt(p.width)) }), (m, io) => { // @mark:badModel
      io.n.set(io.a);
    });
    const Bad = defineBlackBox('popcount', popcountPorts, { sources: ['./fixtures/popcount.sv'], parameters: (p) => ({ WIDTH: p.width }), model: BadModel }); // @mark:badBox
    const error = thrown(() => demoDesign(Bad));
    expect(error).toBeInstanceOf(HdlError);
    expect((error as HdlError).code).toBe('BlackBoxModel');
    expect(error.message).toContain(`${thisFile}:${markerLine(thisFile, 'badBox')}`);
    expect(error.message).toContain(`${thisFile}:${markerLine(thisFile, 'badModel')}`);
    expect(error.message).toContain("does not match the ports of black box 'popcount'");
    expect(error.message).toContain("'n' has 5 bits in the black box but 16 in the model");
  });

  test('two different sources with one file name are an error naming both', () => {
    const Other = defineBlackBox('popcount_other', () => ({ a: input(Bool), n: output(Bool) }), { sources: ['./fixtures/other/popcount.sv'] });
    const Both = defineModule('Both', () => ({ x: input(UInt(4)), n: output(UInt(3)), m: output(Bool) }), (m, io) => {
      const pc = m.instance(popcount(), { width: 4 });
      pc.io.a.set(io.x);
      io.n.set(pc.io.n);
      const other = m.instance(Other, undefined);
      other.io.a.set(io.x.bit(0));
      io.m.set(other.io.n);
    });
    const both = elaborate(Both, undefined).design;
    expect(() => emitSystemVerilog(both)).toThrow(/error\[BlackBoxSource\]: two different Verilog sources are both named popcount\.sv: '.*\/fixtures\/popcount\.sv' \(black box 'popcount'\) and '.*\/fixtures\/other\/popcount\.sv' \(black box 'popcount_other'\)/);
  });

  test('a black box is instantiated, never the top of a design', () => {
    expect(() => elaborate(popcount(), { width: 4 })).toThrow("error[InvalidArgument]: black box 'popcount' cannot be the top of a design");
  });

  test('Yosys synthesizes the design with the black boxes read from their sources', async () => {
    const report = await synthesize(rtl(design), 'generic');
    const names = report.modules.map((m) => m.module);
    expect(names[0]).toBe('bb_demo');
    // Yosys names a module after the parameters an instance overrides: $paramod\popcount\WIDTH=….
    expect(names.filter((n) => n.includes('\\popcount\\WIDTH=')).length).toBe(2);
    expect(names.filter((n) => n.includes('\\reg_adder\\WIDTH=')).length).toBe(1);
    expect(report.modules[0]!.depth?.levels).toBeGreaterThan(0);
    expect(report.total.ffs).toBeGreaterThanOrEqual(9);
  }, BUILD_TIMEOUT);
});

describe('a black box whose reset is named rst_n, like ours', () => {
  test('elaborates, instantiates with .rst_n(rst_n) and lints clean', async () => {
    const RegAdderRstN = defineBlackBox('reg_adder_rstn', regAdderPorts, { sources: ['./fixtures/reg_adder_rstn.sv'], parameters: (p) => ({ WIDTH: p.width }), clock: 'clock', reset: 'rst_n' });
    const Top = defineModule('RstNTop', () => ({ a: input(UInt(4)), b: input(UInt(4)), en: input(Bool), sum: output(UInt(5)) }), (m, io) => {
      const adder = m.instance(RegAdderRstN, { width: 4 });
      adder.io.en.set(io.en);
      adder.io.a.set(io.a);
      adder.io.b.set(io.b);
      io.sum.set(adder.io.sum);
    });
    const d = elaborate(Top, undefined).design;
    expect(emitSystemVerilog(d).files.find((f) => f.path === 'RstNTop.sv')!.text).toContain('.rst_n(rst_n),');
    const lint = await verilatorLint(rtl(d));
    expect(lint.output).toBe('');
  }, BUILD_TIMEOUT);
});

describe('a black box written the way vendor IP is (active-high reset, timescale, lint findings of its own)', () => {
  const vendorPorts = (p: { width: number }) => ({ en: input(Bool), a: input(UInt(p.width)), b: input(UInt(p.width)), sum: output(UInt(p.width + 1)), busy: output(Bool) });
  const VendorModel = defineModule('VendorAdderModel', vendorPorts, (m, io, p) => {
    const sum = m.reg(UInt(p.width + 1), { reset: 0 });
    m.when(io.en, () => sum.set(io.a.addw(io.b)));
    io.sum.set(sum);
    io.busy.set(false);
  });
  const vendorAdder = (lintWaivers?: { verilator?: string[]; icarus?: string[] }) =>
    defineBlackBox('vendor_adder', vendorPorts, { sources: ['./fixtures/vendor_adder.v'], parameters: (p) => ({ WIDTH: p.width }), clock: 'clk', reset: 'rst', resetActive: 'high', model: VendorModel, lintWaivers });
  const top = (def: ReturnType<typeof vendorAdder>, markUnused = true) =>
    defineModule('VendorTop', () => ({ a: input(UInt(4)), b: input(UInt(4)), en: input(Bool), spare: input(UInt(3)), sum: output(UInt(5)) }), (m, io) => {
      const adder = m.instance(def, { width: 4 });
      adder.io.en.set(io.en);
      adder.io.a.set(io.a);
      adder.io.b.set(io.b);
      io.sum.set(adder.io.sum);
      if (markUnused) m.unused(io.spare, adder.io.busy);
    });

  test('its active-high reset takes the inverted rst_n; the generated files take its timescale', () => {
    const e = emitSystemVerilog(elaborate(top(vendorAdder({ verilator: ['UNUSEDSIGNAL'] })), undefined).design);
    const sv = e.files.find((f) => f.path === 'VendorTop.sv')!.text;
    expect(sv).toContain('    .rst(!rst_n),');
    expect(sv.split('\n')[0]).toBe('`timescale 1ns / 1ps // as the black-box sources declare');
    // The line table follows the directive: the instance is where the table says.
    expect(sv.split('\n')[e.lines.VendorTop!.adder! - 1]).toMatch(/^ {2}vendor_adder #\(\.WIDTH\(4\)\) adder \(/);
  });

  test('lint: its own findings fail until waived, for its file only; waived, the design lints clean', async () => {
    const bare = emitSystemVerilog(elaborate(top(vendorAdder()), undefined).design);
    const unwaived = await verilatorLint({ top: 'VendorTop', files: bare.files, fileList: bare.fileList, lintWaivers: bare.lintWaivers });
    expect(unwaived.output).toMatch(/%Warning-UNUSEDSIGNAL: vendor_adder\.v:\d+:\d+: Signal is not driven, nor used: 'debug_tap'/);
    const d = elaborate(top(vendorAdder({ verilator: ['UNUSEDSIGNAL'] })), undefined).design;
    const e = emitSystemVerilog(d);
    expect(e.files.find((f) => f.path === 'VendorTop.vlt')!.text).toContain('lint_off -rule UNUSEDSIGNAL -file "vendor_adder.v"');
    const src = { top: 'VendorTop', files: e.files, fileList: e.fileList, lintWaivers: e.lintWaivers };
    const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
    expect(v.output).toBe('');
    expect(i.output).toBe('');
    // The waiver is not global: the same rule in generated code is still reported.
    const leaky = emitSystemVerilog(d);
    const files = leaky.files.map((f) => (f.path === 'VendorTop.sv' ? { ...f, text: f.text.replace('endmodule', '  wire generated_leftover;\nendmodule') } : f));
    expect((await verilatorLint({ ...src, files })).output).toMatch(/%Warning-UNUSEDSIGNAL: VendorTop\.sv:\d+:\d+: Signal is not driven, nor used: 'generated_leftover'/);
  }, BUILD_TIMEOUT);

  test('Icarus waivers drop a warning text of the black box\'s files only; a bad waiver is named', () => {
    const out = 'vendor_adder.v:12: warning: implicit definition of wire x.\nVendorTop.sv:3: warning: implicit definition of wire y.\n';
    expect(unwaivedIcarusOutput(out, [{ file: 'vendor_adder.v', message: 'implicit definition' }])).toBe('VendorTop.sv:3: warning: implicit definition of wire y.\n');
    expect(thrown(() => elaborate(top(vendorAdder({ verilator: ['unused signal'] })), undefined)).message).toMatch(/'unused signal' is not a Verilator rule name/);
    expect(thrown(() => defineBlackBox('x', vendorPorts, { sources: ['./fixtures/vendor_adder.v'], reset: 'rst', resetActive: 'hi' as never })).message).toMatch(/resetActive must be 'low' or 'high', got "hi"/);
  });

  test('m.unused(): no UnusedInput warning for a marked input, and the warning is back without it', () => {
    expect(elaborate(top(vendorAdder(), true), undefined).warnings).toEqual([]);
    const warnings = elaborate(top(vendorAdder(), false), undefined).warnings;
    expect(warnings.map((w) => `${w.code}: ${w.message}`)).toEqual(["UnusedInput: input 'spare' of module VendorTop is never read"]);
    const Bad = defineModule('Bad', () => ({ a: input(UInt(4)), y: output(UInt(4)) }), (m, io) => {
      io.y.set(io.a);
      m.unused(io.a.add(1)); // @mark:unusedExpr
    });
    const e = thrown(() => elaborate(Bad, undefined));
    expect(e.message).toContain(`${thisFile}:${markerLine(thisFile, 'unusedExpr')}:`);
    expect(e.message).toMatch(/unused\(\) takes signals \(ports, wires, registers, submodule outputs\), not expressions/);
  });

  test('lockstep: the model on the TS simulator agrees with the Verilog (reset high) on Verilator and Icarus', async () => {
    const d = elaborate(top(vendorAdder({ verilator: ['UNUSEDSIGNAL'] })), undefined).design;
    const sim = await compileSimulator(d, { backend: 'lockstep', backends: ['js', 'verilator', 'icarus'] });
    try {
      const rng = createRng(seed);
      for (let c = 0; c < 300; c++) {
        sim.poke('rst_n', rng.int(20) === 0 ? 0 : 1);
        sim.poke('a', rng.int(16));
        sim.poke('b', rng.int(16));
        sim.poke('en', rng.int(2));
        sim.step();
      }
      expect(sim.peek('sum')).toBeGreaterThanOrEqual(0n);
    } finally {
      sim.close();
    }
  }, BUILD_TIMEOUT);
});

describe('lint reports on generated lines name the TypeScript line', () => {
  test('a width mismatch at a black-box instance: the report points at the instance in the .ts file', () => {
    const d = design;
    const e = emitSystemVerilog(d);
    const sv = e.files.find((f) => f.path === 'bb_demo.sv')!.text.split('\n');
    const at = sv.findIndex((l) => l.includes('.a(')) + 1;
    const report = `%Warning-WIDTH: bb_demo.sv:${at}:6: Input port connection 'a' expects 8 bits`;
    const mapped = withSourceLines(report, d, e.files);
    expect(mapped).toMatch(new RegExp(`^%Warning-WIDTH: bb_demo\\.sv:${at}:6: Input port connection 'a' expects 8 bits \\[${thisFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+\\]$`));
    expect(withSourceLines('vfifo.v:3: warning: x', d, e.files)).toBe('vfifo.v:3: warning: x');
  });

  test('a waiver naming a rule this Verilator does not know names the black box that gives it', () => {
    const Adder = defineBlackBox('vendor_adder', (p: { width: number }) => ({ en: input(Bool), a: input(UInt(p.width)), b: input(UInt(p.width)), sum: output(UInt(p.width + 1)), busy: output(Bool) }), {
      sources: ['./fixtures/vendor_adder.v'],
      clock: 'clk',
      lintWaivers: { verilator: ['WIDTHEXPAND'] },
    }); // @mark:waiverOwner
    const Top = defineModule('WaiverTop', () => ({ a: input(UInt(4)), y: output(UInt(5)) }), (m, io) => {
      const x = m.instance(Adder, { width: 4 });
      x.io.en.set(true);
      x.io.a.set(io.a);
      x.io.b.set(io.a);
      io.y.set(x.io.sum);
      m.unused(x.io.busy);
    });
    const d = elaborate(Top, undefined).design;
    const mapped = withSourceLines('%Error: WaiverTop.vlt:2:1: Unknown Error Code: WIDTHEXPAND', d, emitSystemVerilog(d).files);
    expect(mapped).toBe(`%Error: WaiverTop.vlt:2:1: Unknown Error Code: WIDTHEXPAND [lintWaivers of black box 'vendor_adder' at ${thisFile}:${markerLine(thisFile, 'waiverOwner') - 4}: this Verilator has no rule WIDTHEXPAND]`);
  });
});
