// Hierarchical Verilator builds (VerilatorOptions.hierarchical): which modules become blocks, and a model built so runs
// every cycle as the TS simulator does.
import { expect, test } from 'vitest';
import { UInt, cat, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { externalDesign } from '../../src/hdl/sim/external/externalDesign.ts';
import { hierarchicalBlocks, hierarchicalPays } from '../../src/hdl/sim/verilator/hierarchicalBlocks.ts';
import { createRng } from '../../src/util/seededRandom.ts';

// A two-stage multiply-accumulate lane: enough logic that a copy per instance costs C++.
const Lane = defineModule('Lane', () => ({ a: input(UInt(16)), b: input(UInt(16)), y: output(UInt(32)) }), (m, io) => {
  const p = m.regNext(io.a.mulw(io.b), { name: 'p' });
  io.y.set(m.regNext(p.add(io.a.zext(32)).trunc(32), { name: 'acc' }));
});
// Placed three times: below the threshold, it stays inlined.
const Pair = defineModule('Pair', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
  io.y.set(m.regNext(io.a.add(1).trunc(8), { name: 'r' }));
});
// Placed four times, but holds a memory that Node reads: not a block.
const Table = defineModule('Table', () => ({ a: input(UInt(4)), y: output(UInt(8)) }), (m, io) => {
  const mem = m.memory(UInt(8), 16, { name: 'mem' });
  mem.write(io.a, io.a.zext(8));
  io.y.set(mem.readAsync(io.a));
});
const Lanes = defineModule('Lanes', () => ({ a: input(UInt(64)), b: input(UInt(64)), y: output(UInt(128)), z: output(UInt(24)), t: output(UInt(32)) }), (m, io) => {
  const ys = [0, 1, 2, 3].map((i) => {
    const lane = m.instance(Lane, undefined, { name: `lane${i}` });
    lane.io.a.set(io.a.bits(16 * i + 15, 16 * i));
    lane.io.b.set(io.b.bits(16 * i + 15, 16 * i));
    return lane.io.y;
  });
  io.y.set(cat(...ys.reverse()));
  const zs = [0, 1, 2].map((i) => {
    const pair = m.instance(Pair, undefined, { name: `pair${i}` });
    pair.io.a.set(io.a.bits(8 * i + 7, 8 * i));
    return pair.io.y;
  });
  io.z.set(cat(...zs.reverse()));
  const ts = [0, 1, 2, 3].map((i) => {
    const table = m.instance(Table, undefined, { name: `table${i}` });
    table.io.a.set(io.b.bits(4 * i + 3, 4 * i));
    return table.io.y;
  });
  io.t.set(cat(...ts.reverse()));
});

test('a module placed 4 times or more becomes a block; one placed 3 times, one holding a memory, and any with registers probed do not', () => {
  const { design } = elaborate(Lanes, undefined);
  expect(hierarchicalBlocks(externalDesign(design, { registers: false }))).toEqual(['Lane']);
  expect(hierarchicalBlocks(externalDesign(design, { registers: true }))).toEqual([]);
});

test("'auto' builds hierarchically when the C++ is optimized, flat at RTGPU_VERILATOR_OPT=0", () => {
  const saved = process.env.RTGPU_VERILATOR_OPT;
  try {
    const at = (level: string | undefined) => {
      if (level === undefined) delete process.env.RTGPU_VERILATOR_OPT;
      else process.env.RTGPU_VERILATOR_OPT = level;
      return hierarchicalPays();
    };
    expect([at(undefined), at('0'), at('1'), at('2'), at('3')]).toEqual([true, false, true, true, true]);
  } finally {
    if (saved === undefined) delete process.env.RTGPU_VERILATOR_OPT;
    else process.env.RTGPU_VERILATOR_OPT = saved;
  }
});

test('a hierarchical build runs every cycle as the TS simulator (lockstep on random inputs)', async () => {
  const seed = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`verilatorHierarchical.test seed=${seed} (rerun with SEED=${seed})`);
  const { design } = elaborate(Lanes, undefined);
  const lines: string[] = [];
  const sim = await compileSimulator(design, { backend: 'lockstep', backends: [{}, { backend: 'verilator', hierarchical: true, log: (l) => lines.push(l) }] });
  try {
    expect(lines.join('\n')).toMatch(/hierarchical blocks: Lane\b/);
    const rng = createRng(seed);
    const word = () => rng.bits(64);
    for (let c = 0; c < 500; c++) {
      sim.poke('a', word());
      sim.poke('b', word());
      sim.step(1);
    }
    expect(sim.cycle).toBe(500);
  } finally {
    sim.close();
  }
}, 300_000);
