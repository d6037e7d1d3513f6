// The readable SystemVerilog style: when/switch as if/case processes, enums as typedefs, shared and inlined
// expressions, source lines on every assignment, and formal equivalence with the netlist style.
import { describe, expect, test } from 'vitest';
import { Bool, Enum, False, UInt, cat, defineModule, elaborate, fsm, input, mux, output } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { checkEmitterEquivalence, checkSvEquivalence } from '../../src/hdl/synth/equivalence.ts';
import type { Design } from '../../src/hdl/ir/netlist.ts';
import { CommandPatcher } from '../../src/gpu/commandPatcher/commandPatcher.ts';
import { PatchDispatcher } from '../../src/gpu/patchDispatcher/patchDispatcher.ts';
import { IntDivider } from '../../src/gpu/rtCore/intDivider.ts';
import { Fifo } from '../../src/hdl/lib/index.ts';
import { MacPipeline } from '../../src/designs/catalogue/benchDesign.ts';
import { fixtureDesigns } from '../cosim/fixtures.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';

const Op = Enum('op', ['add', 'sub', 'pass', 'clear']);

// A when/elsewhen/otherwise chain on a wire, a switch on an enum, a state machine and a shared comparison.
const Alu = defineModule(
  'Alu',
  () => ({ op: input(Op), a: input(UInt(8)), b: input(UInt(8)), go: input(Bool), y: output(UInt(8)), flag: output(Bool), busy: output(Bool), sar: output(UInt(8)) }),
  (m, io) => {
    const y = m.wire(UInt(8));
    m.switch(io.op)
      .is('add', () => y.set(io.a.add(io.b)))
      .is('sub', () => y.set(io.a.sub(io.b)))
      .is('pass', () => y.set(io.a))
      .default(() => y.set(0));
    io.y.set(y);
    const flag = m.wire(Bool, { default: false });
    m.when(io.a.eq(io.b), () => flag.set(true))
      .elsewhen(io.a.lt(io.b), () => flag.set(io.go))
      .otherwise(() => flag.set(io.a.bit(7)));
    io.flag.set(flag);
    const ctrl = fsm(m, 'ctrl', ['idle', 'run', 'drain'], 'idle');
    ctrl.on({
      idle: () => m.when(io.go, () => ctrl.goto('run')),
      run: () => m.when(io.a.eq(io.b), () => ctrl.goto('drain')),
      drain: () => ctrl.goto('idle'),
    });
    io.busy.set(ctrl.is('idle').not());
    // An arithmetic shift under a mux: SV would make it logical if the mux's other side made it unsigned.
    io.sar.set(mux(io.go, io.a.shl(1), io.a.asSInt().shr(io.b.trunc(3)).asUInt()));
  },
);

// A child's output fed back to its input through the parent's when-logic (the FIFO registers it): the
// emitter's grouping must not mistake this for a combinational loop.
const Drain = defineModule('Drain', () => ({ x: input(UInt(8)), push: input(Bool), stall: input(Bool), y: output(UInt(8)), took: output(Bool), last: output(UInt(8)) }), (m, io) => {
  const q = m.instance(Fifo, { depth: 4, width: 8 });
  q.io.enq.valid.set(io.push);
  q.io.enq.bits.set(io.x);
  const ready = m.wire(Bool);
  m.when(q.io.deq.valid.and(io.stall.not()), () => ready.set(true)).otherwise(() => ready.set(false));
  q.io.deq.ready.set(ready);
  io.y.set(q.io.deq.bits);
  io.took.set(ready.and(q.io.enq.ready));
  // A register that reads the child's output inside its always_ff (the readable style's process).
  const last = m.reg(UInt(8), { reset: 0 });
  m.when(ready, () => last.set(q.io.deq.bits));
  io.last.set(last);
});

// Negated equality, as a wire and inlined into a condition: it reads as `!=`, not `~(a == b)`.
const Differ = defineModule('Differ', () => ({ a: input(UInt(4)), b: input(UInt(4)), c: input(UInt(4)), differ: output(Bool), kept: output(UInt(4)) }), (m, io) => {
  io.differ.set(io.a.eq(io.b).not());
  const kept = m.reg(UInt(4), { reset: 0 });
  m.when(io.a.eq(io.c).not().and(io.b.eq(io.c).not()), () => kept.set(io.b));
  io.kept.set(kept);
});

// Constants a parameter leaves behind: a select that is always 0, an OR with 0, a named wire that is constant.
const Folded = defineModule('Folded', () => ({ a: input(UInt(8)), b: input(UInt(8)), c: input(Bool), y: output(UInt(8)), z: output(Bool), w: output(UInt(8)) }), (m, io) => {
  io.y.set(mux(False(), io.a, io.b));
  io.z.set(False().or(io.c));
  const off = m.wire(Bool);
  off.set(False());
  io.w.set(mux(off, io.a, io.b.add(1)));
});

// A register cleared under one `when` beside a wire computed the same way: the register's update keeps its shape.
const Held = defineModule('Held', () => ({ start: input(Bool), go: input(Bool), y: output(UInt(4)) }), (m, io) => {
  const count = m.reg(UInt(4), { reset: 0, name: 'count' });
  const now = m.wire(UInt(4), { name: 'now' });
  now.set(mux(io.start, 0, count));
  m.when(io.start, () => count.set(0));
  m.when(io.go, () => count.set(now.add(1)));
  io.y.set(now);
});

// Sums used twice without a name: short ones are named after their operands, one too long or too deep is not.
// The GFX12 box decoder's shape in small: registers whose next value reads a value shared by all of them. The readable
// style prints each next value inline and names the shared value after its operand; the netlist style names every step.
const Bounds = defineModule('Bounds', () => ({ x: input(UInt(38)), neg: input(Bool), q: input(UInt(26)), y: output(UInt(128)) }), (m, io) => {
  const term = m.regNext(io.x, { name: 'term' }).zext(64);
  const neg = m.regNext(io.neg, { name: 'neg' });
  const mags = [0, 1].map((c) => {
    const q = m.regNext(io.q.bits(13 * c + 12, 13 * c), { name: `c${c}_q` }).zext(64);
    return m.regNext(mux(neg, mux(q.lt(term), term.sub(q), q.sub(term)), q.add(term)), { name: `c${c}_mag` });
  });
  io.y.set(cat(mags[1]!, mags[0]!));
});

const Shared = defineModule(
  'Shared',
  () => ({
    a: input(UInt(8)),
    b: input(UInt(8)),
    c: input(UInt(8)),
    d: input(UInt(8)),
    e: input(UInt(8)),
    f: input(UInt(8)),
    first_operand_with_a_long_name: input(UInt(8)),
    second_operand_with_a_long_name: input(UInt(8)),
    y: output(UInt(8)),
    z: output(UInt(8)),
    deep: output(UInt(8)),
    deeper: output(UInt(8)),
    deepest: output(UInt(8)),
    deepest2: output(UInt(8)),
    long: output(UInt(8)),
    longer: output(UInt(8)),
  }),
  (m, io) => {
    io.y.set(io.a.add(io.b).add(1));
    io.z.set(io.a.add(io.b).sub(1));
    // Four operators deep is spelled out; five is not.
    io.deep.set(io.a.sub(io.b).xor(io.c.add(io.d)).or(io.e).add(io.f).add(1));
    io.deeper.set(io.a.sub(io.b).xor(io.c.add(io.d)).or(io.e).add(io.f).sub(1));
    io.deepest.set(io.a.sub(io.c).xor(io.b.add(io.e)).or(io.d).add(io.f).and(io.e).add(1));
    io.deepest2.set(io.a.sub(io.c).xor(io.b.add(io.e)).or(io.d).add(io.f).and(io.e).sub(1));
    io.long.set(io.first_operand_with_a_long_name.add(io.second_operand_with_a_long_name).add(1));
    io.longer.set(io.first_operand_with_a_long_name.add(io.second_operand_with_a_long_name).sub(1));
  },
);

// A register assigned on every path, one value in several branches: that value first, the others as overrides.
const Defaulted = defineModule('Defaulted', () => ({ a: input(UInt(4)), s: input(Bool), t: input(Bool), y: output(UInt(4)) }), (m, io) => {
  const r = m.reg(UInt(4), { reset: 0, name: 'r' });
  m.when(io.s, () => m.when(io.t, () => r.set(0)).otherwise(() => r.set(io.a.add(r)))).otherwise(() => r.set(io.a.add(r)));
  io.y.set(r);
});

function sv(design: Design, module: string): string {
  return emitSystemVerilog(design).files.find((f) => f.path === `${module}.sv`)!.text;
}

describe('readable SystemVerilog', () => {
  const design = elaborate(Alu, undefined).design;
  const text = sv(design, 'Alu');

  test('a switch on an enum is a case statement over its member names, in an always_comb', () => {
    // The wire `y` is `y_1` in SV: the output port took the name first.
    expect(text).toMatch(/always_comb begin[^\n]*\n\s+case \(op\)[^\n]*\n\s+OP_ADD: y_1 = a \+ b;/);
    expect(text).toContain('OP_SUB: y_1 = a - b;');
    expect(text).toContain('OP_PASS: y_1 = a;');
    expect(text).toMatch(/default: y_1 = 8'd0;/);
    expect(text).toMatch(/typedef enum logic \[1:0\] \{\n\s+OP_ADD = 2'd0,\n\s+OP_SUB = 2'd1,\n\s+OP_PASS = 2'd2,\n\s+OP_CLEAR = 2'd3\n\s+\} op_t;/);
  });

  test('when/elsewhen/otherwise is an if/else if/else chain', () => {
    // a == b is named (the state machine reads it too); a[7] is a named wire (no selects in always_comb).
    expect(text).toMatch(/if \(a_eq_b\) flag_1 = 1'd1;[^\n]*\n\s+else if \(a < b\) flag_1 = go;[^\n]*\n\s+else flag_1 = flag_1_slice;/);
    expect(text).toContain('wire a_eq_b = a == b;');
  });

  test('a state machine register has its enum type and moves by member name inside always_ff', () => {
    expect(text).toMatch(/^\s+ctrl_t ctrl_state;/m);
    expect(text).toMatch(/case \(ctrl_state\)[^\n]*\n\s+CTRL_IDLE: if \(go\) ctrl_state <= CTRL_RUN;/);
    expect(text).toContain('CTRL_DRAIN: ctrl_state <= CTRL_IDLE;');
    expect(text).toMatch(/ctrl_state <= CTRL_IDLE; \/\/ readable\.test\.ts:\d+/);
  });

  test('a comparison written twice is computed once', () => {
    // io.a.eq(io.b) appears in the flag chain and in the state machine.
    expect(text.match(/a == b/g)!.length).toBe(1);
  });

  test('a negated equality reads as != (a wire, and inside a condition)', () => {
    const differ = sv(elaborate(Differ, undefined).design, 'Differ');
    expect(differ).toContain('assign differ = a != b;');
    expect(differ).toContain('if (a != c & b != c) kept_1 <= b;');
    expect(differ).not.toMatch(/~\(|!\(/);
  });

  test('constants fold before printing; a named wire that folds keeps its name as a constant assign', () => {
    const folded = sv(elaborate(Folded, undefined).design, 'Folded');
    expect(folded).toMatch(/assign y = b; \/\/ readable\.test\.ts:\d+/);
    expect(folded).toMatch(/assign z = c; \/\/ readable\.test\.ts:\d+/);
    expect(folded).toContain("assign w = b + 8'd1;");
    expect(folded).toMatch(/wire off = 1'd0; \/\/ readable\.test\.ts:\d+/);
    expect(folded).not.toMatch(/\d+'d0 \?|= \d+'d0 \|/);
  });

  test("a register's when-logic is not shared with an equal named wire: where nothing assigns it, it holds", () => {
    const held = sv(elaborate(Held, undefined).design, 'Held');
    expect(held).not.toMatch(/count <= now;/);
    expect(held).toMatch(/if \(start\) count <= 4'd0;/);
  });

  test('an arithmetic shift inlined beside an unsigned operand keeps its sign', () => {
    expect(text).toContain('$unsigned($signed(a) >>> b[2:0])');
  });

  test('every assignment carries the TypeScript line it came from', () => {
    const assignments = text.split('\n').filter((l) => /(^|\s)(assign |wire .*=|\w+ (<=|=) )/.test(l) && !/^\s*(initial|`|\/\/)/.test(l) && !/_unused_ok|^\s+[A-Z_]+ = \d+'d\d+,?$/.test(l));
    const inInitial = new Set<string>();
    const lines = text.split('\n');
    for (let i = 0, inside = false; i < lines.length; i++) {
      if (/initial begin/.test(lines[i]!)) inside = true;
      else if (inside && /^\s+end$/.test(lines[i]!)) inside = false;
      else if (inside) inInitial.add(lines[i]!);
    }
    const outside = assignments.filter((l) => !inInitial.has(l));
    expect(outside.length).toBeGreaterThan(10);
    for (const l of outside) expect(l, l).toMatch(/\/\/ readable\.test\.ts:\d+$/);
  });

  test('always_comb blocks select no bits (Icarus cannot take a select into their sensitivity)', () => {
    for (const block of text.split('always_comb').slice(1)) expect(block.slice(0, block.indexOf('\n  end'))).not.toMatch(/\w\[\d+(:\d+)?\]/);
  });

  test('the GPU command patcher reads as written: its state machine by name, no operator-per-line wires', () => {
    const cp = sv(elaborate(CommandPatcher, undefined as never).design, 'CommandPatcher');
    expect(cp).toMatch(/typedef enum logic \{/);
    expect(cp).not.toMatch(/_eq_1\b|_and_1\b/);
    expect(cp.split('\n').length).toBeLessThan(130);
  });

  test('a made-up value several places read is named after its operands and operator, not its first reader', () => {
    const cp = sv(elaborate(CommandPatcher, undefined as never).design, 'CommandPatcher');
    expect(cp).toMatch(/wire frame_state_eq_idle = frame_state == FRAME_IDLE; \/\/ commandPatcher\.ts:\d+/);
    expect(cp).toContain('wire patchDone_and_last = patchDone & last;');
    expect(cp).toContain("wire frame_start_and_frame_pixel_count_ne_0 = frame_start & frame_pixel_count != 32'd0;");
    expect(cp).not.toMatch(/frame_done_eq|frame_done_and|frame_state_sel/);
  });

  test('a made-up name stops at 56 characters and 4 operators deep: past them the net keeps the name of its first reader', () => {
    const shared = sv(elaborate(Shared, undefined).design, 'Shared');
    expect(shared).toContain('wire [7:0] a_plus_b = a + b;');
    expect(shared).toContain("assign y = a_plus_b + 8'd1;");
    expect(shared).toContain('wire [7:0] a_minus_b_xor_c_plus_d_or_e_plus_f = (a - b ^ c + d | e) + f;');
    expect(shared).toContain("assign deeper = a_minus_b_xor_c_plus_d_or_e_plus_f - 8'd1;");
    expect(shared).toContain('wire [7:0] deepest_and = (a - c ^ b + e | d) + f & e;');
    // first_operand_with_a_long_name_plus_second_operand_with_a_long_name: 67 characters.
    expect(shared).toContain('wire [7:0] long_add = first_operand_with_a_long_name + second_operand_with_a_long_name;');
  });

  test('the identifiers and lines of a renamed net are keyed by its netlist name', () => {
    const design = elaborate(CommandPatcher, undefined as never).design;
    const e = emitSystemVerilog(design);
    const mod = design.modules.find((m) => m.name === 'CommandPatcher')!;
    const net = mod.nets.find((n) => e.identifiers.CommandPatcher![n.name] === 'frame_state_eq_idle')!;
    expect(net.synthesized).toBe(true);
    expect(net.name).not.toBe('frame_state_eq_idle');
    const text = e.files.find((f) => f.path === 'CommandPatcher.sv')!.text.split('\n');
    expect(text[e.lines.CommandPatcher![net.name]! - 1]).toContain('wire frame_state_eq_idle =');
  });

  test("a switch on a state machine's state is a case in the always_ff, though its comparisons are named wires", () => {
    const cp = sv(elaborate(CommandPatcher, undefined as never).design, 'CommandPatcher');
    expect(cp).toMatch(/ case \(frame_state\)[^\n]*\n\s+FRAME_IDLE: begin\n\s+if \(frame_start_and_frame_pixel_count_ne_0\) begin/);
    expect(cp).toMatch(/\n\s+FRAME_RUN: if \(patchDone_and_last\) frame_state <= FRAME_IDLE;/);
    const div = sv(elaborate(IntDivider, undefined).design, 'IntDivider');
    expect(div).toMatch(/ case \(divider_state\)[^\n]*\n\s+DIVIDER_DIVIDING: begin/);
    expect(div).toMatch(/\n\s+DIVIDER_DONE: divider_state <= DIVIDER_IDLE;/);
  });

  test('a register assigned on every path gets the value of several branches first, as the default, and the others as overrides', () => {
    const d = sv(elaborate(Defaulted, undefined).design, 'Defaulted');
    expect(d).toMatch(/end else begin\n\s+r <= a \+ r; \/\/ readable\.test\.ts:\d+\n\s+if \(s && t\) r <= 4'd0; \/\/ readable\.test\.ts:\d+\n\s+end/);
    expect(d.match(/a \+ r/g)!.length).toBe(1);
    // The command patcher's thread mask: released and taken every cycle, cleared when a frame starts.
    const cp = sv(elaborate(CommandPatcher, undefined as never).design, 'CommandPatcher');
    expect(cp).toMatch(/end else begin\n\s+holding <= holding & ~released \| taken;[^\n]*\n\s+case \(frame_state\)/);
    expect(cp.match(/holding <= holding & ~released/g)!.length).toBe(1);
  });

  test("the GPU patch dispatcher's port assigns cite their set() lines, not the defineModule line", () => {
    const design = elaborate(PatchDispatcher, { rtCores: 2, icCores: 2 }).design;
    const text = emitSystemVerilog(design).files.find((f) => f.path.startsWith('PatchDispatcher'))!.text;
    const header = /from (\S+:\d+)\./.exec(text)![1]!;
    const assigns = text.split('\n').filter((l) => /^\s*assign /.test(l));
    expect(assigns.length).toBeGreaterThan(40);
    expect(assigns.filter((l) => l.endsWith(`// ${header}`))).toEqual([]);
  });
});

describe('the readable style passes the tools and is formally equivalent to the netlist style', () => {
  const designs: { name: string; design: () => Design }[] = [
    { name: 'alu', design: () => elaborate(Alu, undefined).design },
    { name: 'command patcher', design: () => elaborate(CommandPatcher, undefined as never).design },
    { name: 'feedback through a submodule', design: () => elaborate(Drain, undefined).design },
    { name: 'negated equalities', design: () => elaborate(Differ, undefined).design },
    { name: 'folded constants', design: () => elaborate(Folded, undefined).design },
    { name: 'a register beside an equal named wire', design: () => elaborate(Held, undefined).design },
    { name: 'shared values named after their operands', design: () => elaborate(Shared, undefined).design },
    { name: 'a register with a default and overrides', design: () => elaborate(Defaulted, undefined).design },
    { name: 'the integer divider (a case on its state)', design: () => elaborate(IntDivider, undefined).design },
    ...fixtureDesigns.map((d) => ({ name: d.name, design: d.elaborate })),
  ];
  for (const { name, design } of designs) {
    test(name, async () => {
      const d = design();
      const e = emitSystemVerilog(d);
      const src = { top: d.top, files: e.files, fileList: e.fileList };
      const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
      expect(v.output).toBe('');
      expect(i.output).toBe('');
      const eq = await checkEmitterEquivalence(d, tempDir(`equiv-${d.top}`));
      expect(eq.proven, eq.report).toBe(true);
    }, 180_000);
  }

  test('with submodules as black boxes, logic that reads their outputs inside processes is proven (the cut reaches process reads)', async () => {
    const d = elaborate(Drain, undefined).design;
    expect(sv(d, 'Drain')).toMatch(/always_ff[\s\S]*if \(ready\) last\w* <= q_deq_bits/);
    const eq = await checkEmitterEquivalence(d, tempDir('equiv-opaque'), { submodules: 'opaque' });
    expect(eq.proven, eq.report).toBe(true);
  }, 120_000);

  // Yosys's SAT loads a word-level cell whole for the proof of each of its bits: a 2,791-bit FIFO took more than
  // 15 minutes before the proof mapped both sides to bit-level gates (18 s after).
  test('a wide FIFO (1,024-bit words, its stable-output property read through a 1,024-bit register) is proven within a minute', async () => {
    const d = elaborate(Fifo, { depth: 8, width: 1024 }).design;
    const eq = await checkEmitterEquivalence(d, tempDir('equiv-wide'), { timeoutMs: 60_000 });
    expect(eq.proven, eq.report).toBe(true);
  }, 120_000);

  // Without opt_merge the two multipliers of each lane (one per style) are a SAT problem: more than 5 minutes.
  test('multipliers printed in both styles are one cell to the proof: a 4-lane multiply-and-mix pipeline is proven within 30 s', async () => {
    const d = elaborate(MacPipeline, { lanes: 4, stages: 2 }).design;
    const eq = await checkEmitterEquivalence(d, tempDir('equiv-mac'), { timeoutMs: 30_000 });
    expect(eq.proven, eq.report).toBe(true);
  }, 120_000);

  // Debian's Yosys (0.23) never looks a cycle back in equiv_simple's full cones: such registers were left to equiv_induct,
  // which took more than 15 minutes on the box decoder's 7,708 of them (12 s with the short cones).
  test('registers whose next values the styles print differently are proven before induction, which is left nothing', async () => {
    const d = elaborate(Bounds, undefined).design;
    expect(sv(d, 'Bounds')).toMatch(/c0_mag <= neg\w* \? \(/);
    const dir = tempDir('equiv-bounds');
    const eq = await checkEmitterEquivalence(d, dir);
    expect(eq.proven, eq.report).toBe(true);
    const induct = readFileSync(join(dir, 'yosys.log'), 'utf8').split('Executing EQUIV_INDUCT pass')[1]!.split('Executing')[0]!;
    expect(induct).toMatch(/No selected unproven \$equiv cells found/);
  }, 120_000);

  test('the proof fails when the next value of a register differs: q + term turned into q - term', async () => {
    const d = elaborate(Bounds, undefined).design;
    const gold = emitSystemVerilog(d, { style: 'netlist' });
    const gate = emitSystemVerilog(d);
    const text = gate.files.find((f) => f.path === 'Bounds.sv')!.text;
    const line = text.split('\n').find((l) => /^\s*c1_mag <= /.test(l))!;
    const broken = line.replace(/ \+ (\w+);/, ' - $1;');
    expect(broken).not.toBe(line);
    const files = gate.files.map((f) => (f.path === 'Bounds.sv' ? { ...f, text: text.replace(line, broken) } : f));
    const r = await checkSvEquivalence(d.top, [], { gold, gate: { files, fileList: gate.fileList } }, tempDir('equiv-bounds-broken'));
    expect(r.proven).toBe(false);
    expect(r.report).toMatch(/unproven \$equiv cells/);
  }, 120_000);

  test('the proof fails when the readable text differs: a + b turned into a - b, and an else-branch dropped', async () => {
    const d = elaborate(Alu, undefined).design;
    const gold = emitSystemVerilog(d, { style: 'netlist' });
    const gate = emitSystemVerilog(d);
    for (const [from, to] of [
      ['OP_ADD: y_1 = a + b;', 'OP_ADD: y_1 = a - b;'],
      ["default: y_1 = 8'd0;", "default: y_1 = 8'd1;"],
    ] as const) {
      const files = gate.files.map((f) => (f.path === 'Alu.sv' ? { ...f, text: f.text.replace(from, to) } : f));
      expect(files.find((f) => f.path === 'Alu.sv')!.text).toContain(to);
      const r = await checkSvEquivalence(d.top, [], { gold, gate: { files, fileList: gate.fileList } }, tempDir('equiv-broken'));
      expect(r.proven, `${from} -> ${to}`).toBe(false);
      expect(r.report).toMatch(/unproven \$equiv cells/);
    }
  }, 120_000);
});
