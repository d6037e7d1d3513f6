// The synthesis handoff of declared clocks: the timing constraints (<top>.sdc, parsed), the manifest's clocks, `rtgpu synth`'s per-clock report.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { Bool, Clock, UInt, defineModule, elaborate, input, output, type Design } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { designClocks, type DesignClock } from '../../src/hdl/emit/designClocks.ts';
import { MISSING_PERIOD, periodText, timingConstraints } from '../../src/hdl/emit/timingConstraints.ts';
import { yosysSynth } from '../../src/hdl/cosim/rtlChecks.ts';
import { tempDir } from '../tempDir.ts';
import { TwoClocks } from './fixtures/twoClocks.ts';
import { FallingEdge } from './fixtures/fallingEdge.ts';

const twoClocksFile = 'test/synth/fixtures/twoClocks.ts';
const fallingEdgeFile = 'test/synth/fixtures/fallingEdge.ts';
const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });

/** A Tcl word list: `{…}` literal, `[…]` a nested command, else a bare word (what SDC lines use). */
type Word = string | { readonly command: Word[] };

function tclWords(text: string): Word[] {
  const words: Word[] = [];
  let i = 0;
  const closing = (open: string, close: string) => {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      if (text[j] === open) depth++;
      else if (text[j] === close && --depth === 0) return j;
    }
    throw new Error(`unbalanced ${open} in: ${text}`);
  };
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++;
    else if (text[i] === '{') {
      const end = closing('{', '}');
      words.push(text.slice(i + 1, end));
      i = end + 1;
    } else if (text[i] === '[') {
      const end = closing('[', ']');
      words.push({ command: tclWords(text.slice(i + 1, end)) });
      i = end + 1;
    } else {
      const m = /^[^\s[\]{}]+/.exec(text.slice(i))!;
      words.push(m[0]);
      i += m[0].length;
    }
  }
  return words;
}

/** `-flag value` options and the remaining arguments of a command. */
function options(words: readonly Word[]): { flags: Map<string, Word[]>; args: Word[] } {
  const flags = new Map<string, Word[]>();
  const args: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (typeof w === 'string' && w.startsWith('-')) {
      // -asynchronous is the one flag without a value here.
      const value = w === '-asynchronous' ? [] : [words[++i]!];
      flags.set(w, [...(flags.get(w) ?? []), ...value]);
    } else args.push(w);
  }
  return { flags, args };
}

/** `[get_ports {x}]` → ['get_ports', 'x']. */
function collection(w: Word | undefined): [string, string] {
  if (!w || typeof w === 'string' || w.command.length !== 2) throw new Error(`expected [get_… {name}], got ${JSON.stringify(w)}`);
  return [w.command[0] as string, w.command[1] as string];
}

interface Sdc {
  /** create_clock: name → period text and the port it is on. */
  readonly clocks: Map<string, { period: string; port: string }>;
  /** set_clock_groups -asynchronous: the groups of clock names, per command. */
  readonly asyncGroups: string[][][];
  readonly comments: string[];
}

/** Reads the file, refusing any command but the two both Quartus and Vivado accept as it writes them. */
function parseSdc(text: string): Sdc {
  const sdc: Sdc = { clocks: new Map(), asyncGroups: [], comments: [] };
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('#')) {
      sdc.comments.push(line);
      continue;
    }
    const [command, ...rest] = tclWords(line);
    const { flags, args } = options(rest);
    if (command === 'create_clock') {
      expect([...flags.keys()].sort()).toEqual(['-name', '-period']);
      expect(args).toHaveLength(1);
      const [getter, port] = collection(args[0]);
      expect(getter).toBe('get_ports');
      sdc.clocks.set(flags.get('-name')![0] as string, { period: flags.get('-period')![0] as string, port });
    } else if (command === 'set_clock_groups') {
      expect([...flags.keys()].sort()).toEqual(['-asynchronous', '-group']);
      expect(args).toEqual([]);
      sdc.asyncGroups.push(
        flags.get('-group')!.map((g) => {
          const [getter, name] = collection(g);
          expect(getter).toBe('get_clocks');
          return name.split(/\s+/);
        }),
      );
    } else throw new Error(`unexpected line in the constraints: ${line}`);
  }
  return sdc;
}

const twoClocks = () => elaborate(TwoClocks, {}).design;
const fallingEdge = () => elaborate(FallingEdge, {}).design;

const expectedTwoClocks: DesignClock[] = [
  { name: 'clk_a', periodNs: 10, edges: ['rising'], flipFlopBits: { rising: 9, falling: 0 }, resets: [{ signal: 'rst_a', input: true, kind: 'sync', active: 'high' }], memories: [] },
  { name: 'clk_b', periodNs: 7.3, edges: ['rising'], flipFlopBits: { rising: 15, falling: 0 }, resets: [{ signal: 'areset_b', input: true, kind: 'async', active: 'high' }], memories: [] },
];
const expectedFallingEdge: DesignClock[] = [{ name: 'clk', edges: ['falling'], flipFlopBits: { rising: 0, falling: 4 }, resets: [{ signal: 'resetn', input: true, kind: 'sync', active: 'low' }], memories: [] }];

describe('timing constraints (<top>.sdc)', () => {
  test('two clocks with periods: a create_clock each with its period, one asynchronous group each', () => {
    const e = emitSystemVerilog(twoClocks());
    expect(e.timingConstraints).toBe('two_clocks.sdc');
    const sdc = parseSdc(e.files.find((f) => f.path === 'two_clocks.sdc')!.text);
    expect(Object.fromEntries(sdc.clocks)).toEqual({ clk_a: { period: '10.000', port: 'clk_a' }, clk_b: { period: '7.300', port: 'clk_b' } });
    expect(sdc.asyncGroups).toEqual([[['clk_a'], ['clk_b']]]);
    // Why cutting every path between them is safe, in the file.
    const comments = sdc.comments.join('\n');
    expect(comments).toMatch(/synchronizer/);
    expect(comments).toMatch(/m\.crossDomain/);
    expect(comments).not.toMatch(/TODO/);
    // The .sdc is not a source: the file list is the SystemVerilog only.
    expect(e.fileList).toEqual(['two_clocks.sv']);
  });

  test('one falling-edge clock without a period: a marked line the tools refuse until completed, no clock groups', () => {
    const text = emitSystemVerilog(fallingEdge()).files.find((f) => f.path === 'falling_shift.sdc')!.text;
    const sdc = parseSdc(text);
    expect(Object.fromEntries(sdc.clocks)).toEqual({ clk: { period: MISSING_PERIOD, port: 'clk' } });
    expect(Number.isFinite(Number(MISSING_PERIOD))).toBe(false);
    expect(sdc.asyncGroups).toEqual([]);
    const lines = text.split('\n');
    const create = lines.findIndex((l) => l.startsWith('create_clock'));
    // The TODO sits right above the line to complete and names the clock and the placeholder.
    expect(lines.slice(create - 2, create).join('\n')).toMatch(new RegExp(`^# TODO clk: .*${MISSING_PERIOD}`));
    expect(lines.slice(0, create).join('\n')).toMatch(/# clk: 4 register bits on the falling edge; reset resetn \(sync, active low\)\./);
  });

  test('written by default only where the top declares its clocks (designs on the implicit clk emit what they did), on request for any clocked design', () => {
    const Implicit = defineModule('implicit_counter', () => ({ q: output(UInt(4)) }), (m, io) => {
      const c = m.reg(UInt(4), { reset: 0 });
      c.set(c.add(1));
      io.q.set(c);
    });
    const Comb = defineModule('comb_only', () => ({ a: input(UInt(4)), y: output(UInt(4)) }), (_m, io) => io.y.set(io.a.not()));
    const implicit = elaborate(Implicit, {}).design;
    expect(emitSystemVerilog(implicit).files.map((f) => f.path)).toEqual(['implicit_counter.sv']);
    expect(emitSystemVerilog(implicit).timingConstraints).toBeUndefined();
    const asked = emitSystemVerilog(implicit, { timingConstraints: true });
    expect(Object.fromEntries(parseSdc(asked.files.find((f) => f.path === 'implicit_counter.sdc')!.text).clocks)).toEqual({ clk: { period: MISSING_PERIOD, port: 'clk' } });
    const comb = elaborate(Comb, {}).design;
    expect(emitSystemVerilog(comb, { timingConstraints: true }).files.map((f) => f.path)).toEqual(['comb_only.sv']);
    expect(timingConstraints(comb)).toBeUndefined();
    expect(designClocks(comb)).toEqual([]);
  });

  test('periods are written exactly, never rounded or in exponent form', () => {
    expect(periodText(10)).toBe('10.000');
    expect(periodText(7.3)).toBe('7.300');
    expect(periodText(1000 / 3)).toBe(String(1000 / 3));
    expect(Number(periodText(1e-7))).toBeCloseTo(1e-7, 9);
    expect(periodText(1e-7)).not.toMatch(/e/);
  });
});

describe('the clocks of a design (manifest, report)', () => {
  test('per clock: period, edges, register bits per edge, resets', () => {
    expect(designClocks(twoClocks())).toEqual(expectedTwoClocks);
    expect(designClocks(fallingEdge())).toEqual(expectedFallingEdge);
  });

  test('through the hierarchy: a child on the implicit clock counts on its parent clock, its rst_n traced to the active-high reset; memories', () => {
    const Child = defineModule('child_counter', () => ({ en: input(Bool), q: output(UInt(3)) }), (m, io) => {
      const c = m.reg(UInt(3), { reset: 0 });
      m.when(io.en, () => c.set(c.add(1)));
      io.q.set(c);
    });
    const Parent = defineModule('with_child', () => ({ clock: input(Clock), areset: input(Bool), en: input(Bool), addr: input(UInt(2)), d: input(UInt(8)), q: output(UInt(3)), r: output(UInt(8)) }), (m, io) => {
      m.useDomain(m.clockDomain({ clock: io.clock, reset: io.areset, resetKind: 'async', resetActive: 'high', period: 4 }));
      const u = m.instance(Child, {});
      u.io.en.set(io.en);
      io.q.set(u.io.q);
      const mem = m.memory(UInt(8), 4);
      m.when(io.en, () => mem.write(io.addr, io.d));
      io.r.set(mem.read(io.addr));
    });
    const d: Design = elaborate(Parent, {}).design;
    expect(designClocks(d)).toEqual([
      { name: 'clock', periodNs: 4, edges: ['rising'], flipFlopBits: { rising: 3, falling: 0 }, resets: [{ signal: 'areset', input: true, kind: 'sync', active: 'high' }], memories: ['mem'] },
    ]);
  });
});

describe('the CLI', () => {
  test('rtgpu emit writes <top>.sdc and lists the clocks in manifest.json; a clock without a period is named', async () => {
    const dir = tempDir('clock-handoff');
    const [two, falling] = await Promise.all([rtgpu('emit', twoClocksFile, '--out', join(dir, 'two')), rtgpu('emit', fallingEdgeFile, '--out', join(dir, 'falling'))]);
    expect(two.stderr).toBe('');
    expect(two.exitCode).toBe(0);
    expect(two.stdout).toBe(`${twoClocksFile}: two_clocks (1 modules) -> ${join(dir, 'two')}/ (1 source files, two_clocks.f, two_clocks.sdc, manifest.json)`);
    const manifest = JSON.parse(readFileSync(join(dir, 'two', 'manifest.json'), 'utf8')) as { clocks: DesignClock[]; timingConstraints: string; fileList: string[] };
    expect(manifest.clocks).toEqual(expectedTwoClocks);
    expect(manifest.timingConstraints).toBe('two_clocks.sdc');
    expect(manifest.fileList).toEqual(['two_clocks.sv']);
    expect(readFileSync(join(dir, 'two', 'two_clocks.sdc'), 'utf8')).toBe(timingConstraints(twoClocks()));

    expect(falling.exitCode, falling.stderr).toBe(0);
    expect(falling.stdout.split('\n')[1]).toBe(`  falling_shift.sdc: the design gives no period for 'clk': replace ${MISSING_PERIOD} in its create_clock, or give the period in the design (m.clockDomain({ clock, period }) on an input(Clock) port)`);
    const fm = JSON.parse(readFileSync(join(dir, 'falling', 'manifest.json'), 'utf8')) as { clocks: DesignClock[] };
    expect(fm.clocks).toEqual(expectedFallingEdge);
  }, 120_000);

  test('rtgpu synth reports per clock: period, register bits per edge, resets, beside Yosys\' flip-flops', async () => {
    // xilinx: a falling-edge flip-flop is an FDRE_1, which the cell table counts.
    const [two, falling, json] = await Promise.all([
      rtgpu('synth', twoClocksFile, '--target', 'generic', '--depth', 'none'),
      rtgpu('synth', fallingEdgeFile, '--target', 'xilinx', '--depth', 'none'),
      rtgpu('synth', twoClocksFile, '--target', 'generic', '--depth', 'none', '--json'),
    ]);
    for (const r of [two, falling, json]) expect(r.exitCode, r.stderr).toBe(0);
    expect(two.stdout).toMatch(/^clock\s+period\s+rising\s+falling\s+memories\s+resets$/m);
    expect(two.stdout).toMatch(/^clk_a\s+10 ns\s+9\s+0\s+0\s+rst_a \(sync, active high\)$/m);
    expect(two.stdout).toMatch(/^clk_b\s+7\.3 ns\s+15\s+0\s+0\s+areset_b \(async, active high\)$/m);
    // Nothing to merge or drop: Yosys keeps every register bit the netlist has.
    expect(two.stdout).toMatch(/^total\s+24\s+0\s+Yosys: 24 FFs in all$/m);
    const report = JSON.parse(json.stdout) as { total: { ffs: number }; clocks: DesignClock[] };
    expect(report.total.ffs).toBe(24);
    expect(report.clocks).toEqual(expectedTwoClocks);

    expect(falling.stdout).toMatch(/^clk\s+not given\s+0\s+4\s+0\s+resetn \(sync, active low\)$/m);
    expect(falling.stdout).toMatch(/^total\s+0\s+4\s+Yosys: 4 FFs in all$/m);
    expect(falling.stdout).not.toMatch(/cells not counted/);
  }, 180_000);
});

test('Yosys synthesizes the two-clock design', async () => {
  const d = twoClocks();
  const e = emitSystemVerilog(d);
  const y = await yosysSynth({ top: d.top, files: e.files, fileList: e.fileList });
  expect(y.ok, y.output).toBe(true);
}, 120_000);
