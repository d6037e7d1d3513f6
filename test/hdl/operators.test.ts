// Every eDSL operator, elaborated and simulated, against an independent BigInt reference at edge widths.
import { describe, expect, test } from 'vitest';
import { Bool, SInt, UInt, cat, defineModule, elaborate, input, mux, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`operators.test seed=${seed} (rerun with SEED=${seed})`);

const mask = (w: number) => (1n << BigInt(w)) - 1n;
const toS = (v: bigint, w: number) => (v >> BigInt(w - 1) ? v - (1n << BigInt(w)) : v);
const u = (v: bigint, w: number) => v & mask(w);

interface Case {
  readonly name: string;
  readonly width: number;
  readonly ref: (a: bigint, b: bigint, sh: bigint, sel: bigint) => bigint;
}

function cases(w: number): Case[] {
  const S = (v: bigint) => toS(v, w);
  const bool = (x: boolean) => (x ? 1n : 0n);
  const shs = (a: bigint, n: bigint) => u(n >= BigInt(w) ? (S(a) < 0n ? -1n : 0n) : S(a) >> n, w);
  return [
    { name: 'add', width: w, ref: (a, b) => u(a + b, w) },
    { name: 'addw', width: w + 1, ref: (a, b) => a + b },
    { name: 'sub', width: w, ref: (a, b) => u(a - b, w) },
    { name: 'subw', width: w + 1, ref: (a, b) => u(a - b, w + 1) },
    { name: 'mul', width: w, ref: (a, b) => u(a * b, w) },
    { name: 'mulw', width: 2 * w, ref: (a, b) => a * b },
    { name: 'smulw', width: 2 * w, ref: (a, b) => u(S(a) * S(b), 2 * w) },
    { name: 'saddw', width: w + 1, ref: (a, b) => u(S(a) + S(b), w + 1) },
    { name: 'and', width: w, ref: (a, b) => a & b },
    { name: 'or', width: w, ref: (a, b) => a | b },
    { name: 'xor', width: w, ref: (a, b) => a ^ b },
    { name: 'not', width: w, ref: (a) => u(~a, w) },
    { name: 'neg', width: w, ref: (a) => u(-S(a), w) },
    { name: 'eq', width: 1, ref: (a, b) => bool(a === b) },
    { name: 'ne', width: 1, ref: (a, b) => bool(a !== b) },
    { name: 'ult', width: 1, ref: (a, b) => bool(a < b) },
    { name: 'ule', width: 1, ref: (a, b) => bool(a <= b) },
    { name: 'ugt', width: 1, ref: (a, b) => bool(a > b) },
    { name: 'uge', width: 1, ref: (a, b) => bool(a >= b) },
    { name: 'slt', width: 1, ref: (a, b) => bool(S(a) < S(b)) },
    { name: 'sle', width: 1, ref: (a, b) => bool(S(a) <= S(b)) },
    { name: 'sgt', width: 1, ref: (a, b) => bool(S(a) > S(b)) },
    { name: 'sge', width: 1, ref: (a, b) => bool(S(a) >= S(b)) },
    { name: 'shl3', width: w, ref: (a) => u(a << 3n, w) },
    { name: 'shr3', width: w, ref: (a) => a >> 3n },
    { name: 'sshr3', width: w, ref: (a) => shs(a, 3n) },
    { name: 'shlDyn', width: w, ref: (a, _b, sh) => u(a << sh, w) },
    { name: 'shrDyn', width: w, ref: (a, _b, sh) => a >> sh },
    { name: 'sshrDyn', width: w, ref: (a, _b, sh) => shs(a, sh) },
    { name: 'andR', width: 1, ref: (a) => bool(a === mask(w)) },
    { name: 'orR', width: 1, ref: (a) => bool(a !== 0n) },
    { name: 'xorR', width: 1, ref: (a) => BigInt(a.toString(2).split('').filter((c) => c === '1').length & 1) },
    { name: 'top', width: 1, ref: (a) => (a >> BigInt(w - 1)) & 1n },
    { name: 'bitDyn', width: 1, ref: (a, _b, sh) => (a >> sh) & 1n },
    { name: 'mid', width: Math.max(1, w - Math.floor(w / 2)), ref: (a) => (a >> BigInt(Math.floor(w / 2))) & mask(Math.max(1, w - Math.floor(w / 2))) },
    { name: 'cat', width: 2 * w, ref: (a, b) => (a << BigInt(w)) | b },
    { name: 'mux', width: w, ref: (a, b, _sh, sel) => (sel ? a : b) },
    { name: 'zext', width: w + 7, ref: (a) => a },
    { name: 'sext', width: w + 7, ref: (a) => u(S(a), w + 7) },
    { name: 'trunc', width: Math.max(1, w - 1), ref: (a) => a & mask(Math.max(1, w - 1)) },
  ];
}

/** Cases whose result and operands fit 32 bits, so the design can run on the WebAssembly back end. */
const narrowCases = (w: number) => cases(w).filter((c) => c.width <= 32 && (!['smulw', 'mulw', 'cat'].includes(c.name) || 2 * w <= 32));

/** Cases built from the operations the WebAssembly back end computes word by word on wider nets. */
const WASM_WIDE = ['add', 'addw', 'sub', 'subw', 'mul', 'mulw', 'smulw', 'saddw', 'and', 'or', 'xor', 'not', 'neg', 'eq', 'ne', 'top', 'mid', 'cat', 'mux', 'zext', 'sext', 'trunc'];
const wasmWideCases = (w: number) => cases(w).filter((c) => WASM_WIDE.includes(c.name));

type Subset = 'narrow' | 'wasmWide' | 'all';
const casesOf = (subset: Subset, w: number) => (subset === 'narrow' ? narrowCases(w) : subset === 'wasmWide' ? wasmWideCases(w) : cases(w));

function opsModule(w: number) {
  return defineModule(
    'Ops',
    (p: { w: number; subset: Subset }) => {
      const outs: Record<string, ReturnType<typeof output>> = {};
      for (const c of casesOf(p.subset, p.w)) outs[c.name] = output(UInt(c.width));
      return { a: input(UInt(p.w)), b: input(UInt(p.w)), sh: input(UInt(8)), sel: input(Bool), ...outs };
    },
    (m, io, p) => {
      const o = io as unknown as Record<string, ReturnType<typeof UInt> & any>;
      const a = io.a as any;
      const b = io.b as any;
      const sa = a.asSInt();
      const sb = b.asSInt();
      const half = Math.floor(p.w / 2);
      const set = (name: string, v: any) => o[name]?.set(v.asUInt ? v.asUInt() : v);
      set('add', a.add(b));
      set('addw', a.addw(b));
      set('sub', a.sub(b));
      set('subw', a.subw(b));
      set('mul', a.mul(b));
      set('mulw', a.mulw(b));
      set('smulw', sa.mulw(sb));
      set('saddw', sa.addw(sb));
      set('and', a.and(b));
      set('or', a.or(b));
      set('xor', a.xor(b));
      set('not', a.not());
      set('neg', sa.neg());
      set('eq', a.eq(b));
      set('ne', a.ne(b));
      set('ult', a.lt(b));
      set('ule', a.le(b));
      set('ugt', a.gt(b));
      set('uge', a.ge(b));
      set('slt', sa.lt(sb));
      set('sle', sa.le(sb));
      set('sgt', sa.gt(sb));
      set('sge', sa.ge(sb));
      set('shl3', a.shl(3));
      set('shr3', a.shr(3));
      set('sshr3', sa.shr(3));
      set('shlDyn', a.shl(io.sh));
      set('shrDyn', a.shr(io.sh));
      set('sshrDyn', sa.shr(io.sh));
      set('andR', a.andR());
      set('orR', a.orR());
      set('xorR', a.xorR());
      set('top', a.bit(p.w - 1));
      set('bitDyn', a.bit(io.sh));
      set('mid', a.bits(p.w - 1, p.w === 1 ? 0 : half));
      set('cat', cat(a, b));
      set('mux', mux(io.sel, a, b));
      set('zext', a.zext(p.w + 7));
      set('sext', a.sext(p.w + 7));
      set('trunc', a.trunc(Math.max(1, p.w - 1)));
    },
  );
}

function interesting(rng: ReturnType<typeof createRng>, w: number): bigint {
  switch (rng.int(6)) {
    case 0:
      return 0n;
    case 1:
      return mask(w);
    case 2:
      return 1n << BigInt(w - 1);
    case 3:
      return mask(w - 1 || 1) & mask(w);
    default:
      return rng.bits(w);
  }
}

describe('operators match a BigInt reference', () => {
  const runs: [number, 'wasm' | 'js', Subset][] = [
    [1, 'wasm', 'narrow'],
    [31, 'wasm', 'narrow'],
    [32, 'wasm', 'narrow'],
    [33, 'wasm', 'wasmWide'],
    [64, 'wasm', 'wasmWide'],
    [128, 'wasm', 'wasmWide'],
    [1, 'js', 'all'],
    [31, 'js', 'all'],
    [32, 'js', 'all'],
    [33, 'js', 'all'],
    [64, 'js', 'all'],
    [128, 'js', 'all'],
  ];
  for (const [w, backend, subset] of runs) {
    test(`width ${w} (${backend} back end${subset === 'wasmWide' ? ', word-by-word operations' : ''})`, () => {
      const rng = createRng(seed ^ w);
      const { design } = elaborate(opsModule(w), { w, subset });
      const sim = compileSimulator(design, { backend });
      expect(sim.backend).toBe(backend);
      const all = casesOf(subset, w);
      for (let i = 0; i < 300; i++) {
        const a = interesting(rng, w);
        const b = rng.int(4) === 0 ? a : interesting(rng, w);
        const sh = BigInt(rng.int(4) === 0 ? rng.int(256) : rng.int(w + 2));
        const sel = BigInt(rng.int(2));
        sim.poke('a', a);
        sim.poke('b', b);
        sim.poke('sh', sh);
        sim.poke('sel', sel);
        for (const c of all) {
          const got = sim.peek(c.name);
          const want = c.ref(a, b, sh, sel) & mask(c.width);
          if (got !== want) expect.fail(`${c.name} width ${w}: a=${a.toString(16)} b=${b.toString(16)} sh=${sh} sel=${sel}: got ${got.toString(16)}, want ${want.toString(16)} (SEED=${seed})`);
        }
      }
    });
  }
});

describe('comparisons against the end of the range are constants', () => {
  test('x >= 0, x < 0, x <= max (unsigned); x >= min, x > max (signed): folded, never in the SV, the same values', async () => {
    const { emitSystemVerilog } = await import('../../src/hdl/index.ts');
    const Ends = defineModule('RangeEnds', () => ({ a: input(UInt(8)), s: input(SInt(8)), y: output(UInt(6)) }), (m, io) => {
      io.y.set(cat(io.a.ge(0), io.a.lt(0), io.a.le(255), io.s.ge(-128), io.s.gt(127), io.a.lt(1)));
    });
    const d = elaborate(Ends, undefined).design;
    const sv = emitSystemVerilog(d).files.find((f) => f.path === 'RangeEnds.sv')!.text;
    // Only a < 1 is a real comparison.
    expect(sv).not.toMatch(/>= 8'd0|< 8'd0|<= 8'd255|8'd0 <=/);
    expect(sv).toMatch(/a < 8'd1/);
    const sim = compileSimulator(d);
    for (const [a, s] of [[0n, 0n], [255n, 127n], [7n, 200n]] as const) {
      sim.poke('a', a);
      sim.poke('s', s);
      expect(sim.peek('y')).toBe((1n << 5n) | (0n << 4n) | (1n << 3n) | (1n << 2n) | (0n << 1n) | (a < 1n ? 1n : 0n));
    }
  });
});
