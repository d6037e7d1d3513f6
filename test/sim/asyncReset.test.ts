// Asynchronous resets on every back end: taken at power-on (inputs power on at 0) also inside
// submodules, and visible between edges when the reset is asserted; found by the random-design
// property test (test/property/randomDesigns.test.ts), where the engines disagreed on both.
import { describe, expect, test } from 'vitest';
import { UInt, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';

// A 73-bit register (three words) and an 8-bit one, one level down and at the top.
const Inner = defineModule('AsyncInner', () => ({ x: input(UInt(73)), y: output(UInt(73)) }), (m, io) => {
  const r = m.reg(UInt(73), { reset: 0x184ddaed7043e0603a7n, async: true });
  r.set(io.x);
  io.y.set(r);
});
const Outer = defineModule('AsyncOuter', () => ({ x: input(UInt(73)), y: output(UInt(73)), z: output(UInt(8)), sum: output(UInt(73)) }), (m, io) => {
  const r = m.reg(UInt(8), { reset: 3, async: true });
  r.set(io.x.trunc(8));
  io.z.set(r);
  const inner = m.instance(Inner, undefined, { name: 'inner' });
  inner.io.x.set(io.x);
  io.y.set(inner.io.y);
  // Logic after the register: its output must follow the reset too.
  io.sum.set(inner.io.y.add(r));
});

// Only the submodule has asynchronous registers: the top's reset port reaches them through the hierarchy.
const OnlyInner = defineModule('AsyncOnlyInner', () => ({ x: input(UInt(73)), y: output(UInt(73)) }), (m, io) => {
  const inner = m.instance(Inner, undefined, { name: 'inner' });
  inner.io.x.set(io.x);
  io.y.set(inner.io.y);
});

const design = elaborate(Outer, undefined).design;
const onlyInner = elaborate(OnlyInner, undefined).design;
const backends = ['js', 'wasm', 'verilator', 'icarus'] as const;
const open = (b: (typeof backends)[number], d = design): Simulator | Promise<Simulator> => (b === 'js' || b === 'wasm' ? compileSimulator(d, { backend: b }) : compileSimulator(d, { backend: b }));
const RESET = 0x184ddaed7043e0603a7n;

describe('asynchronous resets', () => {
  for (const backend of backends) {
    test(`${backend}: taken at power-on in a submodule too, though the first poke releases the reset before any read`, async () => {
      const sim = await open(backend);
      try {
        sim.poke('rst_n', 1);
        sim.poke('x', 7);
        expect([sim.peek('y'), sim.peek('z'), sim.peek('sum')]).toEqual([RESET, 3n, RESET + 3n]);
        sim.step();
        expect([sim.peek('y'), sim.peek('z')]).toEqual([7n, 7n]);
        // Asserted between edges: the registers and the logic after them show the reset before the next edge.
        sim.poke('rst_n', 0);
        expect([sim.peek('y'), sim.peek('z'), sim.peek('sum')]).toEqual([RESET, 3n, RESET + 3n]);
        sim.step();
        sim.poke('rst_n', 1);
        sim.powerOn();
        sim.poke('rst_n', 1);
        expect([sim.peek('y'), sim.peek('z')]).toEqual([RESET, 3n]);
      } finally {
        sim.close();
      }
      const deep = await open(backend, onlyInner);
      try {
        deep.poke('rst_n', 1);
        expect(deep.peek('y')).toBe(RESET);
      } finally {
        deep.close();
      }
    }, 600_000);
  }
});
