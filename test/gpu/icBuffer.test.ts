// IC buffer tests: FIFO order, one-hot selection, full/empty/error behaviour, corner parameters, RTL lint, co-simulation.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { IcBuffer, QUEUE_ERROR, defaultIcBufferParams, type IcBufferParams } from '../../src/gpu/icBuffer/icBuffer.ts';
import { icBufferCosimDesign, icBufferGolden, icBufferStimulus } from '../../src/gpu/icBuffer/verification/icBufferCosim.ts';

const seed = seedFromEnv();
console.log(`icBuffer.test seed=${seed} (rerun with SEED=${seed})`);

/** Distinct, recognisable per-core values: core i's origin is 0x0A…i, direction 0x0D…i, and so on. */
const origin = (core: number, tag: number) => (0xa0n << 88n) | (BigInt(tag) << 8n) | BigInt(core);
const direction = (core: number, tag: number) => (0xd0n << 88n) | (BigInt(tag) << 8n) | BigInt(core);
const shaderInfo = (core: number, tag: number) => (0x5an << 120n) | (BigInt(tag) << 8n) | BigInt(core);
const normal = (core: number, tag: number) => (0x4en << 120n) | (BigInt(tag) << 8n) | BigInt(core);

/** Drives the buffer one cycle at a time; every input not named in a cycle is 0. */
class BufferDriver {
  readonly sim: Simulator;

  constructor(readonly p: IcBufferParams) {
    this.sim = compileSimulator(elaborate(IcBuffer, p).design);
    this.sim.reset(2);
  }

  /** One cycle: the RT and IC cores present `tag`-stamped data; then the named strobes are applied (the queue controls are fields of `steer`). */
  cycle(tag: number, strobes: Partial<Record<'q_en_rt2ic' | 'core_id_rt2ic' | 'dequeue_ic' | 'q_en_ic2rt' | 'core_id_ic2rt' | 'dequeue_rt' | 'clear_errors', number | bigint>>): void {
    for (let i = 0; i < this.p.rtCores; i++) {
      this.sim.poke(`ray_origin_rt_${i}`, origin(i, tag));
      this.sim.poke(`ray_direction_rt_${i}`, direction(i, tag));
    }
    for (let i = 0; i < this.p.icCores; i++) {
      this.sim.poke(`answer_ic_${i}_info`, shaderInfo(i, tag));
      this.sim.poke(`answer_ic_${i}_normal`, normal(i, tag));
    }
    for (const field of ['q_en_rt2ic', 'core_id_rt2ic', 'dequeue_ic', 'q_en_ic2rt', 'core_id_ic2rt', 'dequeue_rt'] as const) this.sim.poke(`steer_${field}`, strobes[field] ?? 0);
    this.sim.poke('clear_errors', strobes.clear_errors ?? 0);
    this.sim.step();
  }

  enqueueRay(core: number, tag: number): void {
    this.cycle(tag, { q_en_rt2ic: 1, core_id_rt2ic: 1n << BigInt(core) });
  }

  enqueueHit(core: number, tag: number): void {
    this.cycle(tag, { q_en_ic2rt: 1, core_id_ic2rt: 1n << BigInt(core) });
  }

  rt2ic(): { count: bigint; empty: bigint; full: bigint; error: bigint; origin: bigint; direction: bigint } {
    const s = this.sim;
    return { count: s.peek('rt2ic_count'), empty: s.peek('steer_rt2ic_empty'), full: s.peek('rt2ic_full'), error: s.peek('rt2ic_error'), origin: s.peek('ray_origin_ic'), direction: s.peek('ray_direction_ic') };
  }

  ic2rt(): { count: bigint; empty: bigint; full: bigint; error: bigint; info: bigint; normal: bigint } {
    const s = this.sim;
    return { count: s.peek('ic2rt_count'), empty: s.peek('steer_ic2rt_empty'), full: s.peek('ic2rt_full'), error: s.peek('ic2rt_error'), info: s.peek('steer_shader_info_rt'), normal: s.peek('steer_shader_normal_rt') };
  }
}

describe('IC buffer on the TS simulator', () => {
  test('rays leave in the order they came, each from the core that was selected', () => {
    const d = new BufferDriver(defaultIcBufferParams);
    expect(d.rt2ic()).toEqual({ count: 0n, empty: 1n, full: 0n, error: 0n, origin: 0n, direction: 0n });
    const order = [[2, 10], [0, 11], [3, 12], [1, 13], [2, 14]] as const;
    for (const [core, tag] of order) d.enqueueRay(core, tag);
    expect(d.rt2ic().count).toBe(5n);
    for (const [core, tag] of order) {
      expect(d.rt2ic()).toMatchObject({ origin: origin(core, tag), direction: direction(core, tag), empty: 0n });
      d.cycle(99, { dequeue_ic: 1 });
    }
    expect(d.rt2ic()).toEqual({ count: 0n, empty: 1n, full: 0n, error: 0n, origin: 0n, direction: 0n });
    expect(d.sim.peek('error')).toBe(0n);
  });

  test('every IC core of 32 can be selected, and hits leave in order', () => {
    const d = new BufferDriver({ rtCores: 1, icCores: 32, depth: 32 });
    for (let core = 0; core < 32; core++) d.enqueueHit(31 - core, core);
    expect(d.ic2rt()).toMatchObject({ count: 32n, full: 1n });
    for (let core = 0; core < 32; core++) {
      expect(d.ic2rt()).toMatchObject({ info: shaderInfo(31 - core, core), normal: normal(31 - core, core) });
      d.cycle(0, { dequeue_rt: 1 });
    }
    expect(d.ic2rt()).toMatchObject({ count: 0n, empty: 1n, error: 0n });
  });

  test('the two queues are independent', () => {
    const d = new BufferDriver(defaultIcBufferParams);
    d.cycle(1, { q_en_rt2ic: 1, core_id_rt2ic: 0b1000, q_en_ic2rt: 1, core_id_ic2rt: 0b0010 });
    d.cycle(2, { q_en_ic2rt: 1, core_id_ic2rt: 0b0001 });
    expect(d.rt2ic()).toMatchObject({ count: 1n, origin: origin(3, 1) });
    expect(d.ic2rt()).toMatchObject({ count: 2n, info: shaderInfo(1, 1) });
    d.cycle(3, { dequeue_ic: 1 });
    expect(d.rt2ic().empty).toBe(1n);
    expect(d.ic2rt()).toMatchObject({ count: 2n, error: 0n });
  });

  test('full: an enqueue alone is dropped and flagged; with a dequeue in the same cycle it is taken', () => {
    const d = new BufferDriver({ ...defaultIcBufferParams, depth: 3 });
    [1, 2, 3].forEach((tag) => d.enqueueRay(0, tag));
    expect(d.rt2ic()).toMatchObject({ count: 3n, full: 1n, error: 0n });
    d.enqueueRay(1, 4);
    expect(d.rt2ic()).toMatchObject({ count: 3n, full: 1n, error: BigInt(QUEUE_ERROR.overflow), origin: origin(0, 1) });
    expect(d.sim.peek('error')).toBe(1n);
    d.cycle(5, { q_en_rt2ic: 1, core_id_rt2ic: 0b100, dequeue_ic: 1 });
    expect(d.rt2ic()).toMatchObject({ count: 3n, full: 1n, origin: origin(0, 2) });
    const drained: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      drained.push(d.rt2ic().origin);
      d.cycle(0, { dequeue_ic: 1 });
    }
    expect(drained).toEqual([origin(0, 2), origin(0, 3), origin(2, 5)]);
  });

  test('empty: a dequeue is ignored and flagged, even with an enqueue in the same cycle (which is taken)', () => {
    const d = new BufferDriver(defaultIcBufferParams);
    d.cycle(0, { dequeue_rt: 1 });
    expect(d.ic2rt()).toMatchObject({ count: 0n, empty: 1n, error: BigInt(QUEUE_ERROR.underflow) });
    d.cycle(0, { clear_errors: 1 });
    expect(d.ic2rt().error).toBe(0n);
    d.cycle(7, { q_en_ic2rt: 1, core_id_ic2rt: 0b0100, dequeue_rt: 1 });
    expect(d.ic2rt()).toMatchObject({ count: 1n, error: BigInt(QUEUE_ERROR.underflow), info: shaderInfo(2, 7), normal: normal(2, 7) });
    expect(d.rt2ic().error).toBe(0n);
  });

  test('a core id that is not one-hot is ignored and flagged', () => {
    const d = new BufferDriver(defaultIcBufferParams);
    for (const id of [0, 0b0101, 0b1111, 0b0011]) {
      d.cycle(1, { q_en_rt2ic: 1, core_id_rt2ic: id, q_en_ic2rt: 1, core_id_ic2rt: id });
      expect(d.rt2ic()).toMatchObject({ count: 0n, error: BigInt(QUEUE_ERROR.badCoreId) });
      expect(d.ic2rt()).toMatchObject({ count: 0n, error: BigInt(QUEUE_ERROR.badCoreId) });
      d.cycle(0, { clear_errors: 1 });
    }
    // Without q_en the id does not matter.
    d.cycle(1, { core_id_rt2ic: 0b0110 });
    expect(d.sim.peek('error')).toBe(0n);
  });

  test('error bits accumulate, and one raised in the same cycle as clear_errors survives the clear', () => {
    const d = new BufferDriver({ rtCores: 2, icCores: 2, depth: 1 });
    d.cycle(0, { dequeue_ic: 1 });
    d.enqueueRay(1, 1);
    d.enqueueRay(0, 2);
    d.cycle(0, { q_en_rt2ic: 1, core_id_rt2ic: 0b11 });
    expect(d.rt2ic().error).toBe(BigInt(QUEUE_ERROR.overflow | QUEUE_ERROR.underflow | QUEUE_ERROR.badCoreId));
    d.cycle(0, { clear_errors: 1, q_en_rt2ic: 1, core_id_rt2ic: 0 });
    expect(d.rt2ic()).toMatchObject({ error: BigInt(QUEUE_ERROR.badCoreId), count: 1n, origin: origin(1, 1) });
    // A reset clears everything.
    d.sim.reset(1);
    expect(d.rt2ic()).toEqual({ count: 0n, empty: 1n, full: 0n, error: 0n, origin: 0n, direction: 0n });
  });

  test('parameters outside the supported ranges are refused', () => {
    for (const p of [{ rtCores: 5, icCores: 4, depth: 32 }, { rtCores: 4, icCores: 33, depth: 32 }, { rtCores: 4, icCores: 4, depth: 0 }]) {
      expect(() => elaborate(IcBuffer, p)).toThrow(/IcBuffer/);
    }
  });
});

const cornerParams: IcBufferParams[] = [
  { rtCores: 1, icCores: 1, depth: 1 },
  { rtCores: 2, icCores: 32, depth: 3 },
  { rtCores: 3, icCores: 7, depth: 5 },
  { rtCores: 4, icCores: 16, depth: 64 },
];

describe('IC buffer: random traffic at corner parameters against the queue model (TS simulator)', () => {
  for (const p of cornerParams) {
    test(`${p.rtCores} RT cores, ${p.icCores} IC cores, depth ${p.depth}`, async () => {
      const design = { ...icBufferCosimDesign, elaborate: () => elaborate(IcBuffer, p).design, stimulus: icBufferStimulus(p), golden: () => icBufferGolden(p) };
      const r = await runCosim(design, { cycles: 20_000, seed, sims: ['ts'] });
      expect(r.golden).toBeNull();
    }, 60_000);
  }
});

describe('IC buffer RTL', () => {
  for (const p of [defaultIcBufferParams, ...cornerParams]) {
    test(`lints clean with ${p.rtCores} RT cores, ${p.icCores} IC cores, depth ${p.depth}`, async () => {
      const design = elaborate(IcBuffer, p).design;
      const e = emitSystemVerilog(design);
      const src = { top: design.top, files: e.files, fileList: e.fileList };
      for (const r of [await verilatorLint(src), await icarusCompile(src)]) expect(r.output, `${r.tool} on ${design.top}`).toBe('');
    }, 60_000);
  }

  test('co-simulation on TS, Verilator and Icarus with the golden model (20,000 cycles)', async () => {
    const r = await runCosim(icBufferCosimDesign, { cycles: 20_000, seed, sims: ['ts', 'verilator', 'icarus'] });
    expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
    expect(r.golden).toBeNull();
  }, 300_000);
});
