// The RT core against the ISA simulator (retired PCs, registers, memory, results, faults), random
// programs on the TS simulator, a seeded subset live on Verilator and Icarus in lockstep, and its parts.
import { describe, expect, test } from 'vitest';
import { assemble } from '../../src/isa/assembler.ts';
import { generateProgram, generateScene } from '../../src/stimulus/randomProgram.ts';
import { checkCoreAgainstIss } from '../../src/gpu/rtCore/verification/issLockstepCheck.ts';
import { rtCoreSystemDesign, runOnCore } from '../../src/gpu/rtCore/verification/rtCoreTestbench.ts';
import { IntDivider } from '../../src/gpu/rtCore/intDivider.ts';
import { MainMemory } from '../../src/gpu/memory/mainMemory.ts';
import { RtCore, defaultRtCoreParams } from '../../src/gpu/rtCore/rtCore.ts';
import { FLOAT_KERNEL, INTEGER_KERNEL } from '../../src/designs/bench/coreCpi.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { elaborate } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { PROGRAMS } from '../programs/index.ts';
import { generateTextureMemory } from '../../src/stimulus/randomTextureMemory.ts';
import { RANDOM_TEXTURE_LAYOUT } from '../../src/stimulus/randomProgram.ts';
import { encodeTxdHandle } from '../../src/isa/textureOperands.ts';

const seed = seedFromEnv();
console.log(`rtCore.test seed=${seed} (rerun with SEED=${seed})`);

const lockstep = (source: string, pixels: number, file = 'test.s') => {
  const r = checkCoreAgainstIss({ program: assemble(source, file).words, scene: defaultScene(), pixels });
  expect(r.difference).toBeNull();
  return r;
};

const resultAddress = 's_mov R7, R29\n s_write_low R7, #0xfff0';

describe('directed programs, core against the ISA simulator', () => {
  test('a counted loop: sum 10 + 9 + … + 1 = 55 = 0x37 (hand-derived)', () => {
    const r = lockstep(`ii_addi R2, R0, 10\nloop:\n ii_add R3, R3, R2\n ii_subi R2, R2, 1\n cmp_i R2, R0\n bg loop\n ${resultAddress}\n s_store_4byte R3, R7, 0\n s_store_4byte R1, R7, 4\n fin`, 3);
    expect(r.core.pixels.map((p) => p.ret)).toEqual([0, 1, 2].map((pixel) => [0x37, pixel, 0, 0]));
  });

  test('forwarding: back-to-back, load-use, float chains, ret right after its register is written', () => {
    lockstep(
      `ii_addi R2, R0, 3
       ii_add R3, R2, R2        // EX -> EX
       ii_add R4, R3, R2        // MEM -> EX and EX -> EX
       ${resultAddress}
       s_store_4byte R4, R7, 0
       s_load_4byte R5, R7, 0
       ii_add R6, R5, R5        // load-use
       s_itof R8, R6
       ff_mul R9, R8, R8        // float result used at once
       ff_add R10, R9, R8
       v_get_from_s RV1, R10, #0
       v_get_from_s RV1, R9, #3
       vv_add RV2, RV1, RV1
       v_reduce R11, RV2
       cmp_f R11, R10
       bg over
       ii_addi R12, R0, 1
over:
       ii_addi R30, R31, 8      // the link written just before ret
       ret
       fin
       s_store_4byte R11, R7, 4
       v_store_16byte RV2, R7, -16
       fin`,
      2,
    );
  });

  test('the CPI kernels (integer and float) and a trace with its state saved on the stack', () => {
    lockstep(INTEGER_KERNEL, 2, 'integer-kernel.s');
    lockstep(FLOAT_KERNEL, 2, 'float-kernel.s');
    lockstep(
      `s_write_high R5, #0x3f80
       v_get_from_s RV15, R5, #2
       s_write_high R6, #0xc0a0
       v_get_from_s RV14, R6, #2
       s_push R5
       trace
       s_pop R5
       ${resultAddress}
       v_store_16byte RV14, R7, 0
       s_store_4byte R5, R7, 12
       fin`,
      2,
    );
  });

  test('faults: a store outside the thread, an illegal opcode, a PC past instruction memory', () => {
    const store = lockstep(`s_write_high R2, #0x8001\n s_store_4byte R1, R2, 0\n fin`, 1);
    expect(store.core.faults).toEqual([0]);
    const illegal = lockstep(`ii_addi R2, R0, 1\n .word 0x1C000000\n ii_addi R2, R0, 2\n fin`, 1);
    expect(illegal.core.faults).toEqual([0]);
    const runaway = lockstep(`s_write_low R2, #0x4000\n ret R2`, 1);
    expect(runaway.core.faults).toEqual([0]);
  });

  test('txd, before the texture unit exists: an illegal instruction on the core (the thread faults), as on the ISS without texture memory', () => {
    const r = lockstep(
      `ii_addi R2, R0, 7
       v_get_from_s RV3, R2, #1
       ${resultAddress}
       v_store_16byte RV3, R7, 0
       txd RV3, RV1, RV2, #0xf  // ends the thread
       ii_addi R2, R0, 9
       v_get_from_s RV3, R2, #1
       v_store_16byte RV3, R7, 0
       fin`,
      2,
    );
    expect(r.core.faults).toEqual([0, 1]);
    expect(r.core.pixels.map((p) => p.ret)).toEqual([0, 1].map(() => [0, 7, 0, 0]));
  });
});

describe('txd on a core with a texture unit (the testbench plays the unit: the golden txd, random latency, answers out of order)', () => {
  const params = { ...defaultRtCoreParams, texture: true };

  test('directed: the write mask keeps RVd\'s other lanes, RV0 as destination, the flag after a failed fetch, back-to-back txd', () => {
    const rng = createRng(seed);
    const texture = generateTextureMemory(rng);
    const ok = encodeTxdHandle(RANDOM_TEXTURE_LAYOUT.headers[0], RANDOM_TEXTURE_LAYOUT.samplers[1]);
    const bad = encodeTxdHandle(RANDOM_TEXTURE_LAYOUT.headers[3], RANDOM_TEXTURE_LAYOUT.samplers[0]);
    const lane = (v: number, l: number, word: number) => `s_write_high R2, #0x${(word >>> 16).toString(16)}\n s_write_low R2, #0x${(word & 0xffff).toString(16)}\n v_get_from_s RV${v}, R2, #${l}`;
    const source = [
      // RV1 = (s, t, ok handle, 0), RV2 = derivatives, RV3 = 7s, RV4 = (bad handle).
      lane(1, 0, 0x3e800000), lane(1, 1, 0x3f400000), lane(1, 2, ok),
      lane(2, 0, 0x3d000000), lane(2, 3, 0x3d000000),
      ...[0, 1, 2, 3].map((l) => lane(3, l, 7)), lane(4, 2, bad),
      'txd RV3, RV1, RV2, #0b0101', // lanes x and z fetched, y and w keep 7
      'txd RV0, RV1, RV2',           // writes nothing, sets the flag
      'txd RV5, RV1, RV2, #0b1000',
      'txd RV6, RV4, RV2',            // invalid header: zeros, flag unordered
      'bne failed',
      'ii_addi R9, R0, 1',
      'failed:',
      resultAddress,
      'v_store_16byte RV3, R7, 0', 's_store_4byte R9, R7, 4',
      'fin',
    ].join('\n');
    const program = assemble(source, 'txd-directed.s').words;
    const r = checkCoreAgainstIss({ program, scene: defaultScene(), pixels: 12, texture, stallSeed: seed }, params);
    expect(r.difference, `SEED=${seed}`).toBeNull();
    expect(r.core.textureFetches).toBe(12 * 4);
    // y and w of RV3 kept their 7; R9 stayed 0 because the last txd failed (stored over RV3's y).
    for (const p of r.core.pixels) expect([p.ret[1], p.ret[3]]).toEqual([0, 7]);
  });

  test('random programs with txd: the core retires what the ISS retires, with any texture latency and answer order', () => {
    let fetches = 0;
    for (let i = 0; i < 10; i++) {
      const rng = createRng((seed + 104729 * (i + 1)) >>> 0);
      const p = generateProgram(rng, { size: 200, texture: true });
      const texture = generateTextureMemory(rng);
      const r = checkCoreAgainstIss({ program: assemble(p.source, 'random-txd.s').words, constants: p.constants, scene: generateScene(rng), pixels: 10, texture, stallSeed: i % 2 ? seed + i : undefined }, params);
      expect(r.difference, `SEED=${seed}, program ${i}`).toBeNull();
      fetches += r.core.textureFetches;
    }
    expect(fetches).toBeGreaterThan(50);
  }, 300_000);

  test("live on TS, Verilator and Icarus in lockstep: every output equal every cycle, and the ISS's results", async () => {
    const sim = await compileSimulator(rtCoreSystemDesign(params), { backend: 'lockstep', backends: [{}, 'verilator', 'icarus'] });
    const rng = createRng((seed + 31337) >>> 0);
    const p = generateProgram(rng, { size: 150, texture: true });
    const texture = generateTextureMemory(rng);
    const job = { program: assemble(p.source, 'lockstep-txd.s').words, constants: p.constants, scene: generateScene(rng), pixels: 3, texture, stallSeed: seed };
    const live = runOnCore(job, params, sim);
    const ts = runOnCore(job, params);
    expect(live.pixels, `SEED=${seed}`).toEqual(ts.pixels);
    expect(live.cycles).toBe(ts.cycles);
    expect(checkCoreAgainstIss(job, params).difference, `SEED=${seed}`).toBeNull();
    sim.close();
  }, 600_000);
});

describe('hand-written hazard and directed programs (test/programs)', () => {
  const empty = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
  for (const p of PROGRAMS) {
    test(`${p.file}: the core agrees with the ISS and gives the hand-derived results`, () => {
      const r = checkCoreAgainstIss({ program: assemble(p.source, p.path).words, constants: p.constants, scene: p.scene === 'default' ? defaultScene() : empty, pixels: p.pixels });
      expect(r.difference).toBeNull();
      for (const e of p.expected) expect(r.core.pixels[e.pixel]!.ret, `pixel ${e.pixel}`).toEqual(e.ret.map((w) => w >>> 0));
      expect(r.core.faults).toEqual(p.faults);
    });
  }
});

describe('threads in flight', () => {
  const float = () => assemble(FLOAT_KERNEL, 'float-kernel.s').words;
  test('one thread at a time and eight at once: the same results, instruction streams and memory (the ISS checks each)', () => {
    const job = { program: float(), scene: defaultScene(), pixels: 12 };
    const one = checkCoreAgainstIss({ ...job, concurrency: 1 });
    const eight = checkCoreAgainstIss({ ...job, concurrency: 8 });
    expect([one.difference, eight.difference]).toEqual([null, null]);
    expect(eight.core.pixels).toEqual(one.core.pixels);
    // Eight threads hide the float latency that one thread waits out.
    expect(eight.core.coreCycles).toBeLessThan(one.core.coreCycles / 4);
  });

  test('the dispatcher is slow to launch threads and take events (random backpressure): nothing changes but the timing', () => {
    const job = { program: float(), scene: defaultScene(), pixels: 24 };
    const steady = checkCoreAgainstIss(job);
    const stalled = checkCoreAgainstIss({ ...job, stallSeed: seed });
    expect([steady.difference, stalled.difference], `SEED=${seed}`).toEqual([null, null]);
    expect(stalled.core.pixels).toEqual(steady.core.pixels);
    expect([steady.core.heldBack, stalled.core.heldBack.launches > 0 && stalled.core.heldBack.events > 0]).toEqual([{ launches: 0, events: 0 }, true]);
  }, 60_000);

  test.each([1, 2, 16])('a core with %i contexts agrees with the ISA simulator on random programs', (contexts) => {
    for (let i = 0; i < 4; i++) {
      const rng = createRng((seed + 31 * i + contexts) >>> 0);
      const p = generateProgram(rng, { size: 80 });
      const file = `contexts${contexts}-${(seed + 31 * i + contexts) >>> 0}.s`;
      const r = checkCoreAgainstIss({ program: assemble(p.source, file).words, constants: p.constants, scene: generateScene(rng), pixels: contexts + 2 }, { ...defaultRtCoreParams, contexts });
      expect(r.difference, `${file} (SEED=${seed})`).toBeNull();
    }
  }, 300_000);
});

describe('random programs', () => {
  // The soak's core step runs 10,000.
  const COUNT = 75;
  test(`${COUNT} random programs on the TS simulator agree with the ISA simulator`, () => {
    let instructions = 0;
    for (let i = 0; i < COUNT; i++) {
      const rng = createRng((seed + i) >>> 0);
      const p = generateProgram(rng);
      const scene = generateScene(rng);
      const file = `random-${(seed + i) >>> 0}.s`;
      // Every context busy for some programs, with the dispatcher sometimes slow for others.
      const pixels = i % 3 === 0 ? 12 : 2;
      const r = checkCoreAgainstIss({ program: assemble(p.source, file).words, constants: p.constants, scene, pixels, stallSeed: i % 2 ? seed + i : undefined });
      expect(r.difference, `${file} (SEED=${seed}, program ${i})`).toBeNull();
      instructions += r.instructions;
    }
    expect(instructions).toBeGreaterThan(COUNT * 400);
  }, 300_000);

  test("a seeded subset runs live on TS, Verilator and Icarus in lockstep: every output equal every cycle, the ISS's results", async () => {
    const sim = await compileSimulator(rtCoreSystemDesign(), { backend: 'lockstep', backends: [{}, 'verilator', 'icarus'] });
    for (let i = 0; i < 2; i++) {
      const rng = createRng((seed + 7919 * (i + 1)) >>> 0);
      const p = generateProgram(rng, { size: 120 });
      const job = { program: assemble(p.source, 'lockstep.s').words, constants: p.constants, scene: generateScene(rng), pixels: 1 };
      const live = runOnCore(job, defaultRtCoreParams, sim);
      const ts = runOnCore(job);
      expect(live.pixels, `SEED=${seed}, program ${i}`).toEqual(ts.pixels);
      expect(live.cycles).toBe(ts.cycles);
      expect(checkCoreAgainstIss(job).difference, `SEED=${seed}, program ${i}`).toBeNull();
    }
    sim.close();
  }, 600_000);
});

describe('parts', () => {
  test('a later, shorter load of the program or the constants: the words past it read zero, as on the ISA simulator', () => {
    const program = assemble(`s_write_high R24, #0x2000\n ${resultAddress}\n s_load_4byte R2, R24, #0\n s_load_4byte R3, R24, #4\n s_load_4byte R4, R24, #8\n s_store_4byte R2, R7, 0\n s_store_4byte R3, R7, 4\n s_store_4byte R4, R7, 8\n fin`, 'stale.s').words;
    // The earlier program is longer: past the new program's fin it would run on (and the words there read 0: vv_add, not its code).
    const earlier = { program: Uint32Array.from([...program, ...program]), constants: Uint32Array.from([11, 22, 33]) };
    const r = checkCoreAgainstIss({ program, constants: Uint32Array.from([44]), earlier, scene: defaultScene(), pixels: 2 });
    expect(r.difference).toBeNull();
    expect(r.core.pixels.map((p) => p.ret)).toEqual([[44, 0, 0, 0], [44, 0, 0, 0]]);
  });

  test('a main memory that does not answer: the load faults (zero), the thread ends faulted, mem_error stays set', () => {
    const program = assemble('s_load_4byte R2, R29, #8\n ii_addi R3, R2, 1\n fin', 'no-answer.s').words;
    const s = compileSimulator(elaborate(RtCore, defaultRtCoreParams).design);
    s.reset();
    s.poke('dispatch_event_ready', 1);
    s.poke('mem_resp_done', 0);
    s.poke('dispatch_launch_valid', 1);
    s.poke('dispatch_launch_bits_thread', 3);
    s.poke('dispatch_launch_bits_sp', 0x80030000);
    const writes: string[] = [];
    let event: { fault: bigint; kind: bigint } | undefined;
    let requests = 0;
    let launching = true;
    for (let cycle = 0; cycle < 60 && !event; cycle++) {
      if (launching && s.peek('dispatch_launch_ready') === 1n) {
        s.step();
        s.poke('dispatch_launch_valid', 0);
        launching = false;
        continue;
      }
      if (s.peek('mem_read') === 1n) {
        requests++;
        expect([s.peek('mem_thread'), s.peek('mem_addr')]).toEqual([3n, 0x80030008n]);
      }
      if (s.peek('dispatch_retire_valid') === 1n && s.peek('dispatch_retire_scalarWrite') === 1n) writes.push(`R${s.peek('dispatch_retire_scalarReg')}=${s.peek('dispatch_retire_scalarValue')}`);
      if (s.peek('dispatch_event_valid') === 1n) event = { fault: s.peek('dispatch_event_bits_fault'), kind: s.peek('dispatch_event_bits_kind') };
      const addr = Number(s.peek('imem_addr'));
      s.step();
      s.poke('imem_data', program[addr >> 2] ?? 0);
    }
    expect(requests).toBe(1);
    expect(writes).toEqual(['R2=0', 'R3=1']);
    expect(event).toEqual({ fault: 1n, kind: 1n });
    expect(s.peek('mem_error')).toBe(1n);
  });

  test('the integer divider: truncation, signs, x / 0 = -1, INT_MIN / -1, in 33 cycles', () => {
    const s = compileSimulator(elaborate(IntDivider, undefined).design);
    s.reset();
    const cases: [number, number, number][] = [
      [7, 2, 3],
      [-7, 2, -3],
      [7, -2, -3],
      [-7, -2, 3],
      [-0x80000000, -1, -0x80000000],
      [5, 0, -1],
      [-5, 0, -1],
      [0x7fffffff, 0x7fffffff, 1],
      [1, -0x80000000, 0],
    ];
    for (const [a, b, q] of cases) {
      s.poke('a', a >>> 0);
      s.poke('b', b >>> 0);
      s.poke('start', 1);
      s.step();
      s.poke('start', 0);
      let n = 1;
      while (s.peek('done') === 0n && n < 100) {
        s.step();
        n++;
      }
      expect([n, Number(s.peek('quotient')) | 0], `${a} / ${b}`).toEqual([33, q]);
      s.step();
    }
  });

  test('main memory: vectors at any word address, scalars in lane 0, every request cycle answered on the next', () => {
    const s = compileSimulator(elaborate(MainMemory, { words: 64 }).design);
    s.reset();
    const request = (addr: number, write: boolean, vector: boolean, data = 0n) => {
      s.poke('addr', addr);
      s.poke('write_en', write ? 1 : 0);
      s.poke('read_en', write ? 0 : 1);
      s.poke('s_or_v', vector ? 1 : 0);
      s.poke('data_write', data);
      s.step();
      expect(s.peek('done')).toBe(1n);
      const out = s.peek('data_read');
      s.poke('write_en', 0);
      s.poke('read_en', 0);
      s.step(); // no request in the cycle before: no answer
      expect(s.peek('done')).toBe(0n);
      return out;
    };
    const vec = (w: number[]) => w.reduce((acc, x, i) => acc | (BigInt(x) << BigInt(32 * i)), 0n);
    request(5, true, true, vec([0x11, 0x22, 0x33, 0x44])); // words 5..8: banks 1, 2, 3, 0
    request(9, true, false, 0x55n);
    expect(request(6, false, true)).toBe(vec([0x22, 0x33, 0x44, 0x55]));
    expect(request(8, false, false) & 0xffffffffn).toBe(0x44n);
  });

  test('the core elaborates with its latencies in the module name and rejects impossible ones', () => {
    expect(elaborate(RtCore, defaultRtCoreParams).design.top).toBe('RtCore_contexts8_fadd3_fdiv14_fmul5_fsqrt13_ftoi2_itof2');
    expect(() => elaborate(RtCore, { ...defaultRtCoreParams, contexts: 3 })).toThrow('RtCore: contexts must be 1, 2, 4, 8 or 16, got 3');
    expect(() => elaborate(RtCore, { ...defaultRtCoreParams, fdiv: 40 })).toThrow('RtCore: fdiv latency must be an integer from 0 to 30, got 40');
  });
});
