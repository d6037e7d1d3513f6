// Small designs that exercise every back-end feature in co-simulation: registers of each kind, wide ops, memories.
import { Bool, SInt, UInt, cat, defineModule, elaborate, input, mux, output, fsm } from '../../src/hdl/index.ts';
import type { CosimDesign } from '../../src/hdl/cosim/design.ts';

export const Mixed = defineModule(
  'Mixed',
  () => ({
    en: input(Bool),
    a: input(UInt(40)),
    b: input(UInt(100)),
    s: input(SInt(13)),
    sh: input(UInt(7)),
    addr: input(UInt(6)),
    we: input(Bool),
    data: input(UInt(48)),
    be: input(UInt(6)),
    count: output(UInt(8)),
    sum: output(UInt(101)),
    prod: output(UInt(80)),
    shifted: output(UInt(100)),
    sar: output(SInt(13)),
    cmp: output(UInt(4)),
    q: output(UInt(48)),
    qa: output(UInt(48)),
    state: output(UInt(2)),
  }),
  (m, io) => {
    const count = m.reg(UInt(8), { reset: 3 });
    m.when(io.en, () => count.set(count.add(1)));
    io.count.set(count);
    const acc = m.reg(UInt(101), { reset: 0 });
    acc.set(acc.trunc(100).addw(io.b));
    io.sum.set(acc);
    io.prod.set(io.a.mulw(io.a.trunc(40)).trunc(80));
    io.shifted.set(mux(io.en, io.b.shl(io.sh), io.b.asSInt().shr(io.sh).asUInt()));
    io.sar.set(io.s.shr(io.sh));
    io.cmp.set(cat(io.s.lt(-5), io.s.ge(io.s.neg()), io.a.lt(io.b.trunc(40)), io.b.eq(io.a.zext(100))));
    const mem = m.memory(UInt(48), 40, { init: [0x123456789abcn, 7, 9] });
    m.when(io.we, () => mem.write(io.addr, io.data, { mask: io.be }));
    io.q.set(mem.read(io.addr, { en: io.en.not() }));
    io.qa.set(mem.readAsync(io.addr));
    const ctrl = fsm(m, 'ctrl', ['idle', 'run', 'done'], 'idle');
    ctrl.on({ idle: () => m.when(io.en, () => ctrl.goto('run')), run: () => m.when(io.we, () => ctrl.goto('done')), done: () => ctrl.goto('idle') });
    const q = m.reg(UInt(2), { reset: 1, async: false });
    q.set(ctrl.state.asUInt());
    io.state.set(q);
  },
);

export const AsyncReset = defineModule('AsyncReset', () => ({ en: input(Bool), y: output(UInt(16)), z: output(UInt(16)) }), (m, io) => {
  const r = m.reg(UInt(16), { reset: 0xbeef, async: true });
  m.when(io.en, () => r.set(r.mul(3).add(1)));
  io.y.set(r);
  const free = m.reg(UInt(16), { init: 42 });
  free.set(free.add(r));
  io.z.set(free);
});

export const Comb = defineModule('Comb', () => ({ a: input(UInt(70)), b: input(UInt(70)), y: output(UInt(70)), lt: output(Bool) }), (m, io) => {
  io.y.set(io.a.xor(io.b).sub(io.b.not()));
  io.lt.set(io.a.asSInt().lt(io.b.asSInt()));
});

// Ports named after SV and C++ reserved words: the SV escapes them, the harnesses must follow.
export const Reserved = defineModule('Reserved', () => ({ begin: input(UInt(8)), this: input(UInt(8)), end: output(UInt(8)), delete: output(Bool) }), (m, io) => {
  io.end.set(io.begin.add(io.this));
  io.delete.set(io.begin.eq(io.this));
});

// A register without reset on an output: X after reset until it is first loaded, without power-on values.
export const NoReset = defineModule('NoReset', () => ({ d: input(UInt(8)), load: input(Bool), held: output(UInt(8)), count: output(UInt(8)) }), (m, io) => {
  const held = m.reg(UInt(8));
  m.when(io.load, () => held.set(io.d));
  io.held.set(held);
  const count = m.reg(UInt(8), { reset: 0 });
  count.set(count.add(1));
  io.count.set(count);
});

// Verilator's bit-op-tree rewrite (5.006) dropped the `& i1` below and read `!i0[18]`: every Verilator build
// rtgpu makes turns it off (VERILATOR_MISCOMPILE_FLAGS), and this design fails without that.
export const BitOpTree = defineModule('BitOpTree', () => ({ i0: input(UInt(64)), i1: input(UInt(5)), v1: input(UInt(39)), both: output(Bool) }), (m, io) => {
  const v5 = io.i1.xor(io.v1);
  const v6 = io.i0.and(io.i1);
  const both = m.reg(Bool, { reset: 0 });
  both.set(v5.bit(13).not().and(v6.bit(18).not()));
  io.both.set(both);
});

const reset = (cycle: number, rng: () => number) => (cycle < 2 || rng() < 0.01 ? 0n : 1n);

export const fixtureDesigns: CosimDesign[] = [
  {
    name: 'mixed',
    description: 'wide arithmetic, masked memory, fsm',
    elaborate: () => elaborate(Mixed, undefined).design,
    stimulus: (c, rng) => ({
      rst_n: reset(c, rng),
      en: BigInt(rng.int(2)),
      a: rng.bits(40),
      b: rng.bits(100),
      s: rng.bits(13),
      sh: BigInt(rng.int(110)),
      addr: BigInt(rng.int(48)),
      we: BigInt(rng.int(2)),
      data: rng.bits(48),
      be: rng.bits(6),
    }),
  },
  {
    name: 'asyncreset',
    description: 'asynchronous reset and power-on init',
    elaborate: () => elaborate(AsyncReset, undefined).design,
    stimulus: (c, rng) => ({ rst_n: c === 0 ? 0n : rng() < 0.05 ? 0n : 1n, en: BigInt(rng.int(2)) }),
  },
  {
    name: 'comb',
    description: 'combinational only, 70-bit ports',
    elaborate: () => elaborate(Comb, undefined).design,
    stimulus: (_c, rng) => ({ a: rng.bits(70), b: rng.bits(70) }),
  },
  {
    name: 'noreset',
    description: 'a register without reset on an output',
    elaborate: () => elaborate(NoReset, undefined).design,
    stimulus: (c, rng) => ({ rst_n: c < 2 ? 0n : 1n, d: rng.bits(8), load: BigInt(rng.int(8) === 0) }),
  },
  {
    name: 'reserved',
    description: 'ports named begin, this, end, delete',
    elaborate: () => elaborate(Reserved, undefined).design,
    stimulus: (_c, rng) => ({ begin: rng.bits(8), this: rng.bits(8) }),
  },
  {
    name: 'bitoptree',
    description: 'a tree of single-bit operations Verilator 5.006 misoptimizes',
    elaborate: () => elaborate(BitOpTree, undefined).design,
    // i0[18] set half the time, v1[13] clear half the time: the dropped term decides a quarter of the cycles.
    stimulus: (c, rng) => ({ rst_n: c < 2 ? 0n : 1n, i0: rng.bits(64), i1: rng.bits(5), v1: rng.bits(39) }),
  },
];
