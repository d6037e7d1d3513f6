// Nets of 33–64 bits run as single i64 values and nets of 97–128 bits (muxes, bitwise operations,
// equality) as v128 values in the WebAssembly back end: both must match the JavaScript back end,
// through registers and the activity flags, on random and edge-case stimulus.
import { describe, expect, test } from 'vitest';
import { Bool, SInt, UInt, cat, defineModule, elaborate, input, lit, mux, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const Wide = defineModule(
  'WideValues',
  () => ({
    a: input(UInt(48)),
    b: input(UInt(48)),
    s: input(SInt(40)),
    sh: input(UInt(7)),
    x: input(UInt(128)),
    y: input(UInt(128)),
    z: input(UInt(100)),
    sel: input(Bool),
    p64: output(UInt(48)),
    q64: output(UInt(64)),
    r64: output(UInt(40)),
    f64: output(UInt(8)),
    v128: output(UInt(128)),
    w128: output(UInt(128)),
    u100: output(UInt(100)),
    f128: output(UInt(4)),
  }),
  (m, io) => {
    const prod = io.a.mul(io.b);
    const sum = io.a.add(io.b.not());
    const cat64 = cat(io.a.bits(15, 0), io.b);
    io.p64.set(mux(io.sel, prod, sum.xor(io.b)));
    io.q64.set(cat64.shl(io.sh).or(cat64.shr(io.sh)));
    io.r64.set(io.s.shr(io.sh).asUInt().add(io.s.asUInt().shr(io.sh)));
    io.f64.set(cat(io.a.lt(io.b), io.a.eq(io.b), io.s.lt(lit(0, 40).asSInt()), prod.orR(), prod.andR(), prod.xorR(), io.a.bits(47, 33).orR(), sum.ne(prod)));
    // A small register file of 128-bit words: write-enable decode, read muxes, equality.
    const rf = [0, 1, 2, 3].map((k) => m.reg(UInt(128), { reset: 0, name: `rf${k}` }));
    rf.forEach((r, k) => r.set(mux(io.sel.and(io.sh.bits(1, 0).eq(k)), io.x.xor(io.y), r)));
    const read = mux(io.sh.bit(2), mux(io.sh.bit(3), rf[0]!, rf[1]!), mux(io.sh.bit(3), rf[2]!, rf[3]!));
    io.v128.set(mux(io.sel, read.and(io.y), read.or(io.x)));
    io.w128.set(rf[0]!.xor(rf[3]!));
    const z = m.reg(UInt(100), { reset: 0, name: 'zr' });
    z.set(mux(io.sel, io.z, z.xor(io.z)));
    io.u100.set(z.and(io.z).or(mux(io.sel, z, io.z)));
    io.f128.set(cat(read.eq(io.x), read.ne(io.y), rf[1]!.eq(rf[2]!), z.eq(io.z)));
  },
);

describe('wide values in WebAssembly', () => {
  test('i64 and v128 code agrees with the JavaScript back end', () => {
    const design = elaborate(Wide, undefined).design;
    const js = compileSimulator(design, { backend: 'js', optimize: false });
    const wasm = compileSimulator(design, { backend: 'wasm' });
    const seed = seedFromEnv();
    const rng = createRng(seed);
    const edge = (w: number) => [0n, 1n, (1n << BigInt(w)) - 1n, 1n << BigInt(w - 1), rng.bits(w)][rng.int(5)]!;
    const widths: Record<string, number> = { a: 48, b: 48, s: 40, sh: 7, x: 128, y: 128, z: 100, sel: 1 };
    const outs = ['p64', 'q64', 'r64', 'f64', 'v128', 'w128', 'u100', 'f128'];
    for (const s of [js, wasm]) s.reset(1);
    for (let c = 0; c < 3000; c++) {
      const held = rng.int(3) === 0;
      for (const [name, w] of Object.entries(widths)) {
        if (held && name !== 'sel') continue;
        const v = edge(w);
        for (const s of [js, wasm]) s.poke(name, v);
      }
      for (const o of outs) expect(`${o} 0x${wasm.peek(o).toString(16)}`, `cycle ${c} SEED=${seed}`).toBe(`${o} 0x${js.peek(o).toString(16)}`);
      js.step();
      wasm.step();
    }
    // The fused run loop, past its profile (and recompiled for what it measured).
    const names = [...Object.keys(widths), 'rst_n'];
    const words = (w: number) => Math.ceil(w / 32);
    const cycles = 6000;
    const rows: number[] = [];
    for (let c = 0; c < cycles; c++)
      for (const n of names) {
        const v = n === 'rst_n' ? 1n : edge(widths[n]!);
        for (let k = 0; k < words(widths[n] ?? 1); k++) rows.push(Number((v >> BigInt(32 * k)) & 0xffffffffn));
      }
    const stim = Uint32Array.from(rows);
    const runs = [js, wasm].map((s) => {
      s.powerOn();
      return Array.from(s.runVectors(names, outs, stim, cycles));
    });
    expect(runs[1], `SEED=${seed}`).toEqual(runs[0]);
  });
});
