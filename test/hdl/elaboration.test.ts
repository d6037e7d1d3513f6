// Elaboration results: names from the TypeScript source, module variants, memories, FSM enums, determinism.
import { describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../tempDir.ts';
import { join } from 'node:path';
import { Bool, Decoupled, Enum, HdlError, SInt, UInt, Vec, defineModule, elaborate, fsm, input, output, type ModuleIR } from '../../src/hdl/index.ts';
import { delay, selectByIndex } from '../../src/hdl/lib/index.ts';

const netNames = (m: ModuleIR) => m.nets.map((n) => n.name);

describe('source locations of library helpers', () => {
  test('a delay line and a mux tree from src/hdl/lib carry the line that called them', () => {
    const Helped = defineModule(
      'Helped',
      () => ({ a: input(UInt(8)), i: input(UInt(2)), y: output(UInt(8)), z: output(UInt(8)) }),
      (m, io) => {
        io.y.set(delay(m, io.a, 2, 'late')); // line A
        io.z.set(selectByIndex(io.i, [io.a, io.a.not(), io.a.xor(0x55)])); // line B
      },
    );
    const ir = elaborate(Helped, undefined).design.modules[0]!;
    const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
    const lineOf = (tag: string) => lines.findIndex((l) => l.includes(`// ${tag}`)) + 1;
    const file = fileURLToPath(import.meta.url);
    const regs = ir.regs.map((r) => ir.nets[r.q]!);
    expect(regs.map((n) => n.name)).toEqual(['late_d1', 'late_d2']);
    for (const n of regs) expect(n.loc).toMatchObject({ file, line: lineOf('line A') });
    // The last mux drives the port z itself; the ones before it are the tree's own nets.
    const muxes = ir.cells.filter((c) => c.op === 'mux').map((c) => ir.nets[c.out]!).filter((n) => n.name !== 'z');
    expect(muxes.length).toBeGreaterThan(0);
    for (const n of muxes) expect(n.loc).toMatchObject({ file, line: lineOf('line B') });
  });
});

describe('names come from the TypeScript source', () => {
  const Named = defineModule(
    'Named',
    () => ({ a: input(UInt(8)), b: input(UInt(8)), y: output(UInt(8)), z: output(UInt(9)), s: output(UInt(8)) }),
    (m, io) => {
      const total = m.reg(UInt(8), { reset: 0 });
      const sum = io.a.add(io.b);
      const wide = io.a.addw(io.b.trunc(4));
      total.set(total.add(sum));
      io.y.set(total);
      io.z.set(wide);
      for (let i = 0; i < 2; i++) {
        const stage = m.regNext(io.a);
        void stage;
      }
      const custom = io.a.xor(io.b).named('scrambled');
      io.s.set(custom);
    },
  );
  const ir = elaborate(Named, undefined).design.modules[0]!;

  test('registers, wires and operator results take their variable names', () => {
    expect(netNames(ir)).toEqual(expect.arrayContaining(['total', 'sum', 'wide', 'total_add']));
  });
  test('helper nodes of one call are suffixed, not given the variable name twice', () => {
    expect(netNames(ir)).toContain('wide_zext');
    expect(netNames(ir).filter((n) => n === 'wide')).toHaveLength(1);
  });
  test('repeated declarations at one source line are numbered', () => {
    expect(netNames(ir)).toEqual(expect.arrayContaining(['stage', 'stage_1']));
  });
  test('an explicit name wins', () => {
    expect(netNames(ir)).toContain('scrambled');
  });
  test('elaboration is deterministic', () => {
    const again = elaborate(Named, undefined).design.modules[0]!;
    expect(JSON.stringify(again, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toBe(JSON.stringify(ir, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
  });
});

describe('modules and parameters', () => {
  const Leaf = defineModule('Leaf', (p: { width: number }) => ({ i: input(UInt(p.width)), o: output(UInt(p.width)) }), (m, io) => io.o.set(io.i.not()));
  const Tree = defineModule('Tree', () => ({ i: input(UInt(8)), o: output(UInt(8)), p: output(UInt(4)) }), (m, io) => {
    const x = m.instance(Leaf, { width: 8 });
    const y = m.instance(Leaf, { width: 8 });
    const z = m.instance(Leaf, { width: 4 });
    x.io.i.set(io.i);
    y.io.i.set(x.io.o);
    z.io.i.set(io.i.trunc(4));
    io.o.set(y.io.o);
    io.p.set(z.io.o);
  });

  test('each parameterization is one uniquely named module, children first', () => {
    const { design } = elaborate(Tree, undefined);
    expect(design.modules.map((m) => m.name)).toEqual(['Leaf_width8', 'Leaf_width4', 'Tree']);
    expect(design.top).toBe('Tree');
    const top = design.modules.at(-1)!;
    expect(top.instances.map((i) => `${i.name}:${i.module}`)).toEqual(['x:Leaf_width8', 'y:Leaf_width8', 'z:Leaf_width4']);
    expect(top.clocked).toBe(false);
  });

  test('bundle and vector ports flatten to path names with directions from flips', () => {
    const M = defineModule('M', () => ({ enq: input(Decoupled(UInt(8))), v: output(Vec(2, SInt(4))) }), (m, io) => {
      io.enq.ready.set(true);
      io.v.at(0).set(io.enq.bits.trunc(4).asSInt());
      io.v.at(1).set(-1);
    });
    const ir = elaborate(M, undefined).design.modules[0]!;
    const ports = ir.ports.map((p) => `${ir.nets[p]!.name}:${ir.nets[p]!.kind}:${ir.nets[p]!.width}`);
    expect(ports).toEqual(['enq_valid:input:1', 'enq_ready:output:1', 'enq_bits:input:8', 'v_0:output:4', 'v_1:output:4']);
  });

  test('registers with reset add an rst_n input first; clocked is set', () => {
    const M = defineModule('M', () => ({ y: output(UInt(4)) }), (m, io) => io.y.set(m.reg(UInt(4), { reset: 5 })));
    const ir = elaborate(M, undefined).design.modules[0]!;
    expect(ir.nets[ir.ports[0]!]!.name).toBe('rst_n');
    expect(ir.clocked).toBe(true);
    expect(ir.regs[0]!.reset).toMatchObject({ kind: 'sync', value: 5n });
  });
});

describe('state machines and enums', () => {
  test('the fsm state register carries the enum for SV and waveforms', () => {
    const M = defineModule('M', () => ({ go: input(Bool), busy: output(Bool) }), (m, io) => {
      const ctrl = fsm(m, 'ctrl', ['idle', 'run', 'done'], 'idle');
      ctrl.on({
        idle: () => m.when(io.go, () => ctrl.goto('run')),
        run: () => ctrl.goto('done'),
        done: () => ctrl.goto('idle'),
      });
      io.busy.set(ctrl.is('idle').not());
    });
    const ir = elaborate(M, undefined).design.modules[0]!;
    const state = ir.nets.find((n) => n.name === 'ctrl_state')!;
    expect(state.kind).toBe('reg');
    expect(state.width).toBe(2);
    expect(state.enumType).toEqual({ name: 'ctrl', members: [{ name: 'idle', value: 0 }, { name: 'run', value: 1 }, { name: 'done', value: 2 }] });
  });

  test('an unknown member name is an error', () => {
    const State = Enum('State', ['a', 'b']);
    const M = defineModule('M', () => ({ y: output(State) }), (m, io) => io.y.set('c' as never));
    expect(() => elaborate(M, undefined)).toThrow(/enum State has no member 'c'/);
  });
});

describe('memories', () => {
  test('ports, enables from when, masks and init', () => {
    const M = defineModule('M', () => ({ we: input(Bool), addr: input(UInt(4)), data: input(UInt(32)), be: input(UInt(4)), q: output(UInt(32)), r: output(UInt(32)) }), (m, io) => {
      const mem = m.memory(UInt(32), 16, { init: [1, 2, 3] });
      m.when(io.we, () => mem.write(io.addr, io.data, { mask: io.be }));
      io.q.set(mem.read(io.addr));
      io.r.set(mem.readAsync(io.addr));
    });
    const ir = elaborate(M, undefined).design.modules[0]!;
    const mem = ir.memories[0]!;
    expect(mem).toMatchObject({ name: 'mem', width: 32, depth: 16, init: [1n, 2n, 3n] });
    expect(mem.readPorts.map((p) => p.kind)).toEqual(['sync', 'async']);
    expect(mem.writePorts[0]!.maskGranularity).toBe(8);
    expect(ir.nets[mem.writePorts[0]!.en]!.name).toBe('we');
  });

  test('a malformed hex file is reported at its own line', () => {
    const dir = tempDir('hex');
    const file = join(dir, 'rom.hex');
    writeFileSync(file, '// rom\n0a\nzz\n');
    const M = defineModule('M', () => ({ a: input(UInt(2)), q: output(UInt(8)) }), (m, io) => {
      const rom = m.memory(UInt(8), 4, { init: { hexFile: file } });
      io.q.set(rom.read(io.a));
    });
    try {
      elaborate(M, undefined);
      expect.fail('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(HdlError);
      const d = (e as HdlError).diagnostics[0]!;
      expect(d.code).toBe('BadInitFile');
      expect(d.loc).toMatchObject({ file, line: 3 });
      expect(d.message).toMatch(/'zz' is not a hex word/);
    }
  });
});
