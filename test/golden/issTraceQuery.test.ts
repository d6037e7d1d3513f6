// The ISA simulator's `trace RVa` (docs/isa.md, docs/rays.md): RVa read before the switch and handed to the tracer,
// RV13 = the tracer's (t, u, v, instance) after it; plain trace leaves RV13 zero; RV14/RV15 and R29 as before.
import { describe, expect, test } from 'vitest';
import { Machine, Memory, Thread, type Retired, type Tracer } from '../../src/iss/index.ts';
import type { RayQuery } from '../../src/golden/rayQuery.ts';
import type { Vec3, Vec4 } from '../../src/golden/rayCaster.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { f32 } from './encode.ts';

const INF = 0x7f800000;
const NAN = 0x7fc00000;
const RV = (t: Thread, n: number): number[] => Array.from(t.v.subarray(4 * n, 4 * n + 4));

/** A tracer that records its calls and answers a fixed hit. */
function fakeTracer(answer: { hit: Vec4; normal: Vec4; hitParameters: Vec4 }) {
  const calls: { origin: Vec3; direction: Vec3; query: RayQuery | undefined }[] = [];
  const tracer: Tracer = (origin, direction, query) => {
    calls.push({ origin, direction, query });
    return answer;
  };
  return { calls, tracer };
}

const ANSWER = { hit: [f32(1), f32(2), f32(3), 7] as Vec4, normal: [f32(0), f32(0), f32(4), 9] as Vec4, hitParameters: [f32(2), f32(0.25), f32(0.5), 0xffffffff] as Vec4 };

/** Run one thread of an assembled program with a tracer to its end. */
function runThread(source: string, tracer: Tracer, pixel = 3) {
  const words = assemble(source, 't.s').words;
  const t = new Thread(pixel, pixel, new Memory(words), tracer);
  const records: Retired[] = [];
  while (!t.done) records.push(t.step());
  return { t, records, trace: records.find((r) => r.event === 'trace')! };
}

/** Set lane `lane` of RV`v` to a 32-bit value through R2 (s_write_high/low, v_get_from_s). */
const setLane = (v: number, lane: number, value: number): string =>
  `s_write_high R2, #0x${(value >>> 16).toString(16)}\n s_write_low R2, #0x${(value & 0xffff).toString(16)}\n v_get_from_s RV${v}, R2, #${lane}\n`;

/** A program that fills many registers, sets up the ray, moves R29, traces, then ends. */
function program(trace: string, query?: { reg: number; lanes: [number, number, number, number] }): string {
  let s = 'ii_addi R5, R0, 55\n ii_addi R28, R0, 6\n ii_addi R30, R0, 7\n ii_addi R29, R29, 0x100\n cmp_i R0, R5\n';
  // RV13 and every other vector register non-zero before the trace: the switch clears them.
  for (let v = 1; v <= 15; v++) s += setLane(v, 3, 0x1000 + v);
  s += setLane(14, 0, f32(0.5)) + setLane(15, 2, f32(-1));
  if (query) query.lanes.forEach((x, lane) => (s += setLane(query.reg, lane, x)));
  return `${s} ${trace}\n fin\n`;
}

describe('ISS: trace RVa hands RVa to the tracer and writes RV13', () => {
  test.each([1, 3, 12, 13])('trace RV%i: query = RVa.xyz read before the switch; RV13 = hitParameters; RV14/RV15, R1, R29 as after trace', (a) => {
    const { calls, tracer } = fakeTracer(ANSWER);
    const lanes: [number, number, number, number] = [f32(0.125), f32(5), 0x0000ab03, 0xdeadbeef];
    const { t, trace } = runThread(program(`trace RV${a}`, { reg: a, lanes }), tracer);
    expect(calls).toEqual([{ origin: [f32(0.5), 0, 0], direction: [0, 0, f32(-1)], query: { tmin: f32(0.125), tmax: f32(5), flags: 0x0000ab03 } }]);
    expect(RV(t, 13)).toEqual(ANSWER.hitParameters);
    expect(RV(t, 14)).toEqual(ANSWER.hit);
    expect(RV(t, 15)).toEqual(ANSWER.normal);
    // Every other vector register (RVa included, unless it is RV13) is zero after the switch.
    for (let v = 1; v <= 12; v++) expect(RV(t, v), `RV${v}`).toEqual([0, 0, 0, 0]);
    const want = new Uint32Array(32);
    want[1] = 3;
    want[29] = 0x80030100;
    expect(Array.from(t.r)).toEqual(Array.from(want));
    expect(t.flag).toBe(0);
    expect(trace.trace).toEqual({ origin: [f32(0.5), 0, 0], direction: [0, 0, f32(-1)], query: { tmin: f32(0.125), tmax: f32(5), flags: 0x0000ab03 }, hit: ANSWER.hit, normal: ANSWER.normal, hitParameters: ANSWER.hitParameters });
  });

  test('trace RV14 / RV15: the query is the origin or direction register, read before the answer overwrites it', () => {
    const { calls, tracer } = fakeTracer(ANSWER);
    const { t } = runThread(program('trace RV15'), tracer);
    // RV15 = (0, 0, −1, 0x100f) as the program left it: tmin 0, tmax 0, flags = the bits of −1.
    expect(calls[0]!.query).toEqual({ tmin: 0, tmax: 0, flags: f32(-1) });
    expect(RV(t, 15)).toEqual(ANSWER.normal);
    expect(RV(t, 13)).toEqual(ANSWER.hitParameters);
    const r14 = runThread(program('trace RV14'), fakeTracer(ANSWER).tracer);
    expect(r14.trace.trace!.query).toEqual({ tmin: f32(0.5), tmax: 0, flags: 0 });
  });

  test('plain trace: the tracer gets no query and RV13 stays zero whatever hitParameters says', () => {
    const { calls, tracer } = fakeTracer(ANSWER);
    const { t, trace } = runThread(program('trace'), tracer);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.query).toBeUndefined();
    expect(RV(t, 13)).toEqual([0, 0, 0, 0]);
    expect(RV(t, 14)).toEqual(ANSWER.hit);
    expect(RV(t, 15)).toEqual(ANSWER.normal);
    expect(t.r[29]).toBe(0x80030100);
    expect(trace.trace).toEqual({ origin: [f32(0.5), 0, 0], direction: [0, 0, f32(-1)], hit: ANSWER.hit, normal: ANSWER.normal, hitParameters: [0, 0, 0, 0] });
    expect('query' in trace.trace!).toBe(false);
  });

  test('a trace word with only A’s top bit set runs as plain trace (the low 4 bits name RV0)', () => {
    const { calls, tracer } = fakeTracer(ANSWER);
    const { t } = runThread(program('.word 0xea000000'), tracer);
    expect(calls[0]!.query).toBeUndefined();
    expect(RV(t, 13)).toEqual([0, 0, 0, 0]);
  });

  test('the retired record of trace RVa writes no register record (RV13–RV15 are in its trace record)', () => {
    const { trace } = runThread(program('trace RV2', { reg: 2, lanes: [0, INF, 0xff00, 0] }), fakeTracer(ANSWER).tracer);
    expect(trace.scalar).toBeUndefined();
    expect(trace.vector).toBeUndefined();
    expect(trace.event).toBe('trace');
  });
});

describe('ISS: trace RVa through the golden caster (Machine, brute force)', () => {
  // One triangle in the plane z = −2: v0 (−1,−1,−2), v1 (1,−1,−2), v2 (0,1,−2), shader 3. The ray from the origin
  // along −z hits (0, 0, −2) at t = 2: (1, 1, 0) = u (2, 0, 0) + v (1, 2, 0), so u = 0.25, v = 0.5.
  const scene: Scene = { vertices: Uint32Array.from([-1, -1, -2, 1, -1, -2, 0, 1, -2].map(f32)), triangles: Uint32Array.from([0, 1, 2, 3]) };

  /** RV14 = 0, RV15 = (0, 0, −1); RV3 = (tmin, tmax, flags, 0); trace; store RV13, RV14 at 0xFFF0 / 0xFFE0; fin. */
  function traced(tmin: number, tmax: number, flags: number, trace = 'trace RV3') {
    const source = `${setLane(15, 2, f32(-1))}${setLane(3, 0, tmin)}${setLane(3, 1, tmax)}${setLane(3, 2, flags)}
      ${trace}
      s_write_low R4, #0xfff0
      ii_add R4, R4, R29
      v_store_16byte RV13, R4, #0
      v_store_16byte RV14, R4, #-16
      v_store_16byte RV15, R4, #-32
      fin`;
    const m = new Machine({ program: assemble(source, 't.s').words, scene });
    const r = m.run(1);
    const mem = (off: number) => [0, 1, 2, 3].map((i) => m.memory.loadScalar(0, (0x80000000 + off + 4 * i) >>> 0).words[0]!);
    return { rv13: r.pixels[0]!.ret, rv14: mem(0xffe0), rv15: mem(0xffd0), faults: r.faults };
  }

  test('a hit inside the interval: RV13 = (t, u, v, 0xFFFFFFFF), RV14/RV15 as after plain trace', () => {
    const r = traced(0, INF, 0xff00);
    expect(r.rv13).toEqual([f32(2), f32(0.25), f32(0.5), 0xffffffff]);
    expect(r.rv14).toEqual([0, 0, f32(-2), 3]);
    expect(r.rv15).toEqual([0, 0, f32(4), 0]);
    const plain = traced(0, INF, 0xff00, 'trace');
    expect(plain.rv13).toEqual([0, 0, 0, 0]);
    expect(plain.rv14).toEqual(r.rv14);
    expect(plain.rv15).toEqual(r.rv15);
  });

  test.each([
    ['tmax below t', 0, f32(1.5), 0xff00],
    ['tmin above t', f32(2.5), INF, 0xff00],
    ['tmin > tmax', f32(3), f32(1), 0xff00],
    ['a NaN bound', NAN, INF, 0xff00],
    ['tmax = 0', 0, 0, 0xff00],
    ['ray mask 0', 0, INF, 0],
  ])('no accepted hit (%s): RV13, RV14 and RV15 all zero', (_, tmin, tmax, flags) => {
    const r = traced(tmin, tmax, flags);
    expect([r.rv13, r.rv14, r.rv15]).toEqual([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
  });

  test('the interval is closed: t = tmin = tmax = 2 is accepted', () => {
    expect(traced(f32(2), f32(2), 0xff00).rv13).toEqual([f32(2), f32(0.25), f32(0.5), 0xffffffff]);
  });
});
