// The intersection (IC) core: one ray against every triangle of its triangle memory, a new triangle
// entering the Möller–Trumbore pipeline every cycle, the closest hit kept (docs/intersection.md).
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FAdd, FCmp, FDiv, FMul } from '../../hdl/lib/float/index.ts';

/** Latencies of the float units the pipeline is built from. */
export interface IcCoreParams {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  /** Cycles from a triangle request to its answer (the triangle memory's latency). */
  readonly memory: number;
}

export const defaultIcCoreParams: IcCoreParams = { fadd: 3, fmul: 3, fdiv: 14, memory: 2 };

/** Cycles from a triangle entering the pipeline to its test result reaching the closest-hit register. */
export const icPipelineDepth = (p: IcCoreParams): number => 5 * p.fadd + 3 * p.fmul + p.fdiv;

const ONE = 0x3f800000;
const SIGN = 0x80000000;
const TRIANGLE_ID_BITS = 16;

type Vec3 = readonly [UIntValue, UIntValue, UIntValue];
const split3 = (v: UIntValue): Vec3 => [v.bits(31, 0), v.bits(63, 32), v.bits(95, 64)];
const join3 = (v: Vec3): UIntValue => cat(v[2], v[1], v[0]);

/** Float operations as unit instances (each its own hardware: the pipeline needs them all every cycle). */
class FloatOps {
  private n = 0;
  constructor(
    private readonly m: ModuleBuilder,
    private readonly p: IcCoreParams,
  ) {}

  private binary(def: typeof FAdd | typeof FMul | typeof FDiv, stages: number, a: UIntValue, b: UIntValue, name: string): UIntValue {
    const u = this.m.instance(def, { stages }, { name: `${name}${this.n++}` });
    u.io.in_valid.set(true);
    u.io.a.set(a);
    u.io.b.set(b);
    return u.io.result;
  }
  add = (a: UIntValue, b: UIntValue) => this.binary(FAdd, this.p.fadd, a, b, 'fadd');
  /** a − b as a + (−b): flipping the sign is exact, so the rounding is that of a subtraction. */
  sub = (a: UIntValue, b: UIntValue) => this.binary(FAdd, this.p.fadd, a, b.xor(SIGN), 'fsub');
  mul = (a: UIntValue, b: UIntValue) => this.binary(FMul, this.p.fmul, a, b, 'fmul');
  div = (a: UIntValue, b: UIntValue) => this.binary(FDiv, this.p.fdiv, a, b, 'fdiv');
  sub3 = (a: Vec3, b: Vec3): Vec3 => [this.sub(a[0], b[0]), this.sub(a[1], b[1]), this.sub(a[2], b[2])];
  /** The products of cross(a, b) (one multiplier stage), then their differences (one adder stage). */
  crossProducts = (a: Vec3, b: Vec3) => [this.mul(a[1], b[2]), this.mul(a[2], b[1]), this.mul(a[2], b[0]), this.mul(a[0], b[2]), this.mul(a[0], b[1]), this.mul(a[1], b[0])] as const;
  crossDifferences = (x: readonly UIntValue[]): Vec3 => [this.sub(x[0]!, x[1]!), this.sub(x[2]!, x[3]!), this.sub(x[4]!, x[5]!)];
  products3 = (a: Vec3, b: Vec3): Vec3 => [this.mul(a[0], b[0]), this.mul(a[1], b[1]), this.mul(a[2], b[2])];
  /** The flag of a − b (Z 00, unordered 01, P 10, N 11), combinational. */
  compare = (a: UIntValue, b: UIntValue): UIntValue => {
    const u = this.m.instance(FCmp, { stages: 0 }, { name: `fcmp${this.n++}` });
    u.io.in_valid.set(true);
    u.io.a.set(a);
    u.io.b.set(b);
    return u.io.flags;
  };
}

/** `value` delayed by `cycles` registers (no reset: a valid bit travels alongside). */
function delay(m: ModuleBuilder, value: UIntValue, cycles: number, name: string): UIntValue {
  let v = value;
  for (let i = 1; i <= cycles; i++) v = m.regNext(v, { name: `${name}_d${i}` });
  return v;
}

function delayBool(m: ModuleBuilder, value: BoolValue, cycles: number, name: string): BoolValue {
  let v = value;
  for (let i = 1; i <= cycles; i++) v = m.regNext(v, { name: `${name}_d${i}`, reset: 0 });
  return v;
}

/**
 * The core's side toward the dispatcher and the host: a ray in, the answer out, the counters. Shared
 * with the systems that wrap the core, which pass these ports straight through.
 */
export const rayPorts = () => ({
  // A ray arrives (accepted while `ready`).
  ray_start: input(Bool),
  ray_origin: input(UInt(96)),
  ray_direction: input(UInt(96)),
  ray_thread: input(UInt(5)),
  ready: output(Bool),
  // The answer: hit point and shader id (0 = miss), the unnormalized geometric normal, the thread.
  done: output(Bool),
  hit_info: output(UInt(128)),
  hit_normal: output(UInt(96)),
  done_thread: output(UInt(5)),
  // Counters for the host.
  rays: output(UInt(32)),
  tests: output(UInt(32)),
  busy_cycles: output(UInt(32)),
});

export const IcCore = defineModule(
  'IcCore',
  (_p: IcCoreParams) => ({
    ...rayPorts(),
    // The triangle memory's read side.
    tri_req_valid: output(Bool),
    tri_req_id: output(UInt(TRIANGLE_ID_BITS)),
    tri_resp_valid: input(Bool),
    tri_resp_v0: input(UInt(96)),
    tri_resp_v1: input(UInt(96)),
    tri_resp_v2: input(UInt(96)),
    tri_resp_shader: input(UInt(32)),
    tri_resp_not_valid: input(Bool),
  }),
  (m, io, p) => {
    for (const [k, v] of Object.entries(p)) if (!Number.isInteger(v) || v < 0 || v > 40) throw new Error(`IcCore: ${k} latency must be an integer from 0 to 40, got ${v}`);
    const f = new FloatOps(m, p);
    const depth = icPipelineDepth(p);
    const finishCycles = p.memory + 2 * p.fadd + p.fmul;

    // ------------------------------------------------------------------ ray and sweep control
    const state = m.reg(UInt(2), { reset: 0 }); // 0 idle, 1 sweep, 2 drain, 3 finish
    const idle = state.eq(0);
    const origin = m.reg(UInt(96));
    const direction = m.reg(UInt(96));
    const thread = m.reg(UInt(5));
    const o = split3(origin);
    const d = split3(direction);
    const nextId = m.reg(UInt(TRIANGLE_ID_BITS), { reset: 0 });
    const countdown = m.reg(UInt(8), { reset: 0 });
    const start = io.ray_start.and(idle);
    const finite = (x: UIntValue) => x.bits(30, 23).ne(0xff);
    const isZero = (x: UIntValue) => x.bits(30, 0).eq(0);
    const rayValid = [...split3(io.ray_origin), ...split3(io.ray_direction)].map(finite).reduce((a, b) => a.and(b)).and(split3(io.ray_direction).map(isZero).reduce((a, b) => a.and(b)).not());

    // ------------------------------------------------------------------ the test pipeline
    const entering = io.tri_resp_valid.and(io.tri_resp_not_valid.not()).and(state.eq(1));
    const v0 = split3(io.tri_resp_v0);
    const v1 = split3(io.tri_resp_v1);
    const v2 = split3(io.tri_resp_v2);
    // S1 (add): edges and the origin relative to v0.
    const e1 = f.sub3(v1, v0);
    const e2 = f.sub3(v2, v0);
    const s = f.sub3(o, v0);
    // S2 (mul), S3 (add): p = cross(d, e2), q = cross(s, e1).
    const p3 = f.crossDifferences(f.crossProducts(d, e2));
    const q3 = f.crossDifferences(f.crossProducts(s, e1));
    // S4 (mul), S5 and S6 (add): dot products, summed (x + y) + z.
    const lag = p.fmul + p.fadd;
    const late = (v: Vec3, name: string): Vec3 => [0, 1, 2].map((i) => delay(m, v[i]!, lag, `${name}${'xyz'[i]}`)) as unknown as Vec3;
    const e1L = late(e1, 'e1');
    const e2L = late(e2, 'e2');
    const sL = late(s, 's');
    const dot = (a: Vec3, b: Vec3, name: string) => {
      const x = f.products3(a, b);
      return f.add(f.add(x[0], x[1]), delay(m, x[2], p.fadd, `${name}_z`));
    };
    const det = dot(e1L, p3, 'det');
    const uNum = dot(sL, p3, 'u');
    const vNum = dot(d, q3, 'v');
    const tNum = dot(e2L, q3, 't');
    // S7 (div), S8 (mul), S9 (add): u, v, t and u + v.
    const inv = f.div(lit(ONE, 32), det);
    const u = f.mul(delay(m, uNum, p.fdiv, 'u_num'), inv);
    const v = f.mul(delay(m, vNum, p.fdiv, 'v_num'), inv);
    const t = f.mul(delay(m, tNum, p.fdiv, 't_num'), inv);
    const uv = f.add(u, v);
    const detL = delay(m, det, p.fdiv + p.fmul + p.fadd, 'det');
    const uL = delay(m, u, p.fadd, 'u');
    const vL = delay(m, v, p.fadd, 'v');
    const tL = delay(m, t, p.fadd, 't');
    // The triangle id and its valid bit travel alongside.
    const testValid = delayBool(m, entering, depth, 'test_valid');
    const testId = delay(m, nextId.sub(p.memory).trunc(TRIANGLE_ID_BITS), depth, 'test_id');
    const testShader = delay(m, io.tri_resp_shader, depth, 'test_shader');

    // S10 (combinational): the decision and the closest hit so far (on equal t the earlier triangle stays).
    const zero = lit(0, 32);
    const flagOf = f.compare;
    const geZero = (x: UIntValue) => flagOf(x, zero).eq(0b10).or(flagOf(x, zero).eq(0b00));
    const uvFlag = flagOf(uv, lit(ONE, 32));
    const hit = testValid
      .and(flagOf(detL, zero).ne(0b00))
      .and(geZero(uL))
      .and(geZero(vL))
      .and(uvFlag.eq(0b11).or(uvFlag.eq(0b00)))
      .and(flagOf(tL, zero).eq(0b10));
    const haveBest = m.reg(Bool, { reset: 0 });
    const bestT = m.reg(UInt(32));
    const bestId = m.reg(UInt(TRIANGLE_ID_BITS));
    const bestShader = m.reg(UInt(32));
    const closer = haveBest.not().or(flagOf(tL, bestT).eq(0b11));
    m.when(start, () => haveBest.set(false)).elsewhen(hit.and(closer), () => {
      haveBest.set(true);
      bestT.set(tL);
      bestId.set(testId);
      bestShader.set(testShader);
    });

    // ------------------------------------------------------------------ finish: normal and hit point of the best
    // The best triangle is read again; its normal and the hit point take memory + add + mul + add cycles.
    const e1F = f.sub3(v1, v0);
    const e2F = f.sub3(v2, v0);
    const normal = f.crossDifferences(f.crossProducts(e1F, e2F));
    const hitPoint = [0, 1, 2].map((i) => f.add(o[i]!, delay(m, f.mul(bestT, d[i]!), p.fadd, `td${'xyz'[i]}`))) as unknown as Vec3;

    // ------------------------------------------------------------------ state machine
    io.tri_req_valid.set(state.eq(1).or(state.eq(3).and(countdown.eq(finishCycles))));
    io.tri_req_id.set(mux(state.eq(3), bestId, nextId));
    const finishing = state.eq(3);
    const doneNow = finishing.and(countdown.eq(0));
    m.switch(state)
      .is(0, () =>
        m.when(start, () => {
          origin.set(io.ray_origin);
          direction.set(io.ray_direction);
          thread.set(io.ray_thread);
          nextId.set(0);
          // An invalid ray misses everything: straight to the finish, with no best.
          state.set(mux(rayValid, lit(1, 2), lit(3, 2)));
          countdown.set(finishCycles);
        }),
      )
      .is(1, () => {
        nextId.set(nextId.add(1));
        // The first id past the last triangle ends the sweep; the tests in flight drain.
        m.when(io.tri_resp_valid.and(io.tri_resp_not_valid), () => {
          state.set(2);
          countdown.set(depth);
        });
      })
      .is(2, () =>
        m.when(countdown.eq(0), () => {
          state.set(3);
          countdown.set(finishCycles);
        }).otherwise(() => countdown.set(countdown.sub(1))),
      )
      .is(3, () => m.when(countdown.eq(0), () => state.set(0)).otherwise(() => countdown.set(countdown.sub(1))));

    io.ready.set(idle);
    io.done.set(doneNow);
    io.done_thread.set(thread);
    io.hit_info.set(mux(haveBest, cat(bestShader, join3(hitPoint)), lit(0, 128)));
    io.hit_normal.set(mux(haveBest, join3(normal), lit(0, 96)));

    // ------------------------------------------------------------------ counters
    const rays = m.reg(UInt(32), { reset: 0 });
    const tests = m.reg(UInt(32), { reset: 0 });
    const busy = m.reg(UInt(32), { reset: 0 });
    m.when(start, () => rays.set(rays.add(1)));
    m.when(testValid, () => tests.set(tests.add(1)));
    m.when(idle.not(), () => busy.set(busy.add(1)));
    io.rays.set(rays);
    io.tests.set(tests);
    io.busy_cycles.set(busy);
  },
);
