// The TS simulator rewrites the netlist for speed (simplify.ts, leadingZeros.ts): the rewritten netlist must
// give every net the value the elaborated one gives. Leading-zero trees of every shape the float units use
// are checked on every input (or edge cases and random inputs when wide), on both back ends.
import { describe, expect, test } from 'vitest';
import { UInt, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { leadingZeros, shiftRightJam } from '../../src/hdl/lib/float/common.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { flattenDesign } from '../../src/hdl/index.ts';
import { findLeadingZeroCounts } from '../../src/hdl/sim/compiled/leadingZeros.ts';
import { findShiftRightJams, shiftRightJamValue } from '../../src/hdl/sim/compiled/shiftRightJam.ts';
import { simplifyNetlist } from '../../src/hdl/ir/simplify.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

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

/** Sticky right shifts: (value width, amount width), amounts past the width included. */
const JAMS: readonly [number, number][] = [
  [2, 1],
  [5, 3],
  [8, 3],
  [8, 4],
  [26, 5],
  [27, 8],
  [32, 6],
];

const Jams = defineModule(
  'Jams',
  () => ({ x: input(UInt(32)), a: input(UInt(8)), ...Object.fromEntries(JAMS.map(([w, n]) => [`j${w}_${n}`, output(UInt(w))])) }),
  (m, io) => {
    const ports = io as unknown as Record<string, { set(v: unknown): void }>;
    for (const [w, n] of JAMS) ports[`j${w}_${n}`]!.set(shiftRightJam(io.x.bits(w - 1, 0), io.a.bits(n - 1, 0), `s${w}_${n}`));
  },
);

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

  test('sticky right shifts are found and agree with the elaborated netlist and a reference', () => {
    const jd = elaborate(Jams, {}).design;
    expect(findShiftRightJams(flattenDesign(jd)).size).toBe(JAMS.length);
    const sims = [compileSimulator(jd, { backend: 'js', optimize: false }), compileSimulator(jd, { backend: 'js' }), compileSimulator(jd, { backend: 'wasm' })];
    const rng = createRng(seedFromEnv());
    const xs = [0n, 1n, 0xffffffffn, 0x80000000n, 0x10n, 0x3ffffffn, ...Array.from({ length: 60 }, () => rng.bits(32) >> BigInt(rng.int(32)))];
    for (const x of xs) {
      for (let a = 0n; a < 256n; a += 1n) {
        for (const sim of sims) {
          sim.poke('x', x);
          sim.poke('a', a);
        }
        for (const [w, n] of JAMS) {
          const want = shiftRightJamValue(x & ((1n << BigInt(w)) - 1n), a & ((1n << BigInt(n)) - 1n), w);
          for (const sim of sims) if (sim.peek(`j${w}_${n}`) !== want) expect(`${sim.backend} j${w}_${n}(x=0x${x.toString(16)}, a=${a}) = ${sim.peek(`j${w}_${n}`)}`).toBe(`${want}`);
        }
      }
    }
  });

  test('simplification keeps every net of the flat netlist and removes cells only by folding or sharing them', () => {
    const s = simplifyNetlist(flat);
    expect(s.nets).toBe(flat.nets);
    expect(s.cells.length).toBe(flat.cells.length);
    expect(s.cells.map((c) => c.out)).toEqual(flat.cells.map((c) => c.out));
  });
});

describe('simplification with kept nets (the readable emitter names every net the TypeScript names)', () => {
  // w is a ^ 0, so equal to a; y reads w.
  const Kept = defineModule('Kept', () => ({ a: input(UInt(8)), b: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
    const w = m.wire(UInt(8), { name: 'w' });
    w.set(io.a.xor(0));
    io.y.set(w.add(io.b));
  });
  const mod = elaborate(Kept, undefined).design.modules[0]!;
  const id = (name: string) => mod.nets.find((n) => n.name === name)!.id;
  const adder = (s: typeof mod) => s.cells.find((c) => c.op === 'add')!;

  test('without them a reader reads the equal net; with them it reads the kept net by name', () => {
    expect(adder(simplifyNetlist(mod))).toMatchObject({ a: id('a') });
    const kept = simplifyNetlist(mod, { readable: true });
    expect(adder(kept)).toMatchObject({ a: id('w') });
    expect(kept.cells.find((c) => c.out === id('w'))).toEqual({ op: 'buf', out: id('w'), a: id('a') });
  });
});
