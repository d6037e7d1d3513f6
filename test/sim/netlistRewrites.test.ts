// The TS simulator rewrites the netlist for speed (simplify.ts, leadingZeros.ts): the rewritten netlist must
// give every net the value the elaborated one gives. Leading-zero trees of every shape the float units use
// are checked on every input (or edge cases and random inputs when wide), on both back ends.
import { describe, expect, test } from 'vitest';
import { UInt, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { leadingZeros } from '../../src/hdl/lib/float/common.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { flattenDesign } from '../../src/hdl/index.ts';
import { findLeadingZeroCounts } from '../../src/hdl/sim/compiled/leadingZeros.ts';
import { simplifyNetlist } from '../../src/hdl/sim/compiled/simplify.ts';
import { createRng, seedFromEnv } from '../../src/hdl/testbench/rng.ts';

const WIDTHS = [2, 3, 4, 5, 7, 8, 12, 16, 24, 27, 28, 32, 40];

const Counters = defineModule(
  'Counters',
  () => ({ x: input(UInt(40)), ...Object.fromEntries(WIDTHS.map((w) => [`lz${w}`, output(UInt(Math.ceil(Math.log2(w + 1)) || 1))])) }),
  (m, io) => {
    const ports = io as unknown as Record<string, { set(v: unknown): void }>;
    for (const w of WIDTHS) ports[`lz${w}`]!.set(leadingZeros(io.x.bits(w - 1, 0), `z${w}`));
  },
);

const reference = (x: bigint, w: number) => {
  for (let i = w - 1; i >= 0; i--) if ((x >> BigInt(i)) & 1n) return BigInt(w - 1 - i);
  return BigInt(w);
};

describe('netlist rewrites', () => {
  const design = elaborate(Counters, {}).design;
  const flat = flattenDesign(design);

  test('every leading-zero tree of 4 bits or more is found (as one count, nothing inside it)', () => {
    const found = [...findLeadingZeroCounts(flat).values()];
    const roots = found.filter((f) => flat.nets[f.out]!.name.match(/^z\d+(_l\d+_0_count)?$/));
    // Each width of at least 3 bits pads to a tree of at least 4 leaves, whose root count is found.
    for (const w of WIDTHS.filter((w) => w >= 3 && w <= 32)) expect(found.some((f) => f.n === 1 << Math.ceil(Math.log2(w)) && f.lo === 0 && flat.nets[f.src]!.width >= w)).toBe(true);
    expect(roots.length).toBeGreaterThan(0);
  });

  test('leading-zero counts agree with the elaborated netlist and with a reference on both back ends', () => {
    const sims = [compileSimulator(design, { backend: 'js', optimize: false }), compileSimulator(design, { backend: 'js' }), compileSimulator(design, { backend: 'wasm' })];
    const rng = createRng(seedFromEnv());
    const values: bigint[] = [];
    for (let x = 0n; x < 1n << 12n; x++) values.push(x);
    for (let i = 0; i < 40; i++) values.push(1n << BigInt(i), (1n << BigInt(i)) - 1n, ((1n << 40n) - 1n) >> BigInt(i));
    for (let i = 0; i < 2000; i++) values.push(rng.bits(40) >> BigInt(rng.int(40)));
    for (const x of values) {
      for (const s of sims) s.poke('x', x);
      for (const w of WIDTHS) {
        const want = reference(x & ((1n << BigInt(w)) - 1n), w);
        for (const s of sims) if (s.peek(`lz${w}`) !== want) expect(`${s.backend} lz${w}(0x${x.toString(16)}) = ${s.peek(`lz${w}`)}`).toBe(`${want}`);
      }
    }
  });

  test('internal nets of a rewritten tree still show their elaborated values to peek', () => {
    const plain = compileSimulator(design, { backend: 'js', optimize: false });
    const fast = compileSimulator(design, { backend: 'wasm' });
    const internal = flat.nets.filter((n) => n.name.startsWith('z24_') || n.name.startsWith('z27_')).map((n) => n.name);
    for (const x of [0n, 1n, 0x800000n, 0x123456n, 0xffffffn, 0x5n << 20n]) {
      plain.poke('x', x);
      fast.poke('x', x);
      for (const name of internal) expect(`${name} ${fast.peek(name)}`).toBe(`${name} ${plain.peek(name)}`);
    }
  });

  test('simplification keeps every net of the flat netlist and removes cells only by folding or sharing them', () => {
    const s = simplifyNetlist(flat);
    expect(s.nets).toBe(flat.nets);
    expect(s.cells.length).toBe(flat.cells.length);
    expect(s.cells.map((c) => c.out)).toEqual(flat.cells.map((c) => c.out));
  });
});
