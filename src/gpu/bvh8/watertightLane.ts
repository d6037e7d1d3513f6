// One lane of the BVH8 triangle engine: the IC core's watertight ray–triangle test (watertightTest) as a module, one triangle per cycle.
import { Bool, UInt, defineModule, input, output } from '../../hdl/index.ts';
import { delay } from '../../hdl/lib/index.ts';
import { FloatOps } from '../icCore/floatOps.ts';
import { split3 } from '../icCore/vec3.ts';
import { watertightDepth, watertightTest, type RayConstants } from '../icCore/watertightIntersection.ts';

/** Latencies of the float units of the test. */
export interface WatertightLaneParams {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
}

const MAX_UNIT_LATENCY = 40;

/** Throws a clear error, naming the unit, for a latency the test cannot be built with. */
export function checkWatertightLatencies(unitName: string, p: WatertightLaneParams): void {
  for (const unit of ['fadd', 'fmul', 'fdiv'] as const) {
    const v = p[unit];
    if (!Number.isInteger(v) || v < 0 || v > MAX_UNIT_LATENCY) throw new Error(`${unitName}: ${unit} latency must be an integer from 0 to ${MAX_UNIT_LATENCY}, got ${v}`);
  }
}

/** Cycles from a triangle entering to its registered result: the test's depth (S1–S10), then the output register. */
export function watertightLaneLatency(p: WatertightLaneParams): number {
  checkWatertightLatencies('WatertightLane', p);
  return watertightDepth(p) + 1;
}

export const WatertightLane = defineModule(
  'WatertightLane',
  (p: WatertightLaneParams) => {
    checkWatertightLatencies('WatertightLane', p);
    return {
      // The ray: origin (x in bits 31:0), its axes (rayAxes: kx, ky, kz, 2 bits each, kx lowest) and shear (Sx, Sy, Sz; Sx lowest).
      origin: input(UInt(96)),
      axes: input(UInt(6)),
      shear: input(UInt(96)),
      /** v0, v1, v2, 96 bits each, v0 lowest. */
      vertices: input(UInt(288)),
      // watertightLaneLatency(params) cycles later:
      hit: output(Bool),
      /** binary32 T / det, whether or not the triangle is hit. */
      t: output(UInt(32)),
      /** The barycentrics V / det and W / det (the weights of v1 and v2: testTriangleWatertight's u and v). */
      u: output(UInt(32)),
      v: output(UInt(32)),
      /** det = U + V + W: its sign is the face the ray meets (P front, N back: faceOf in src/golden/rayAccept.ts). */
      det: output(UInt(32)),
      /** cross(e1, e2) (z y x, x lowest), the geometric normal the shading uses. */
      normal: output(UInt(96)),
    };
  },
  (m, io, p) => {
    const v = [0, 1, 2].map((k) => split3(io.vertices.bits(96 * k + 95, 96 * k)));
    // The constants are read at the stages that use them (axes at S1, the shear at S2), delayed from the ports; getters build only what is read.
    const constantsAt = (cycles: number): RayConstants => ({
      get axes() {
        return delay(m, io.axes, cycles, 'axes');
      },
      get shear() {
        return delay(m, io.shear, cycles, 'shear');
      },
    });
    const test = watertightTest({
      m,
      units: new FloatOps(m, p),
      p,
      vertices: [v[0]!, v[1]!, v[2]!],
      originAt: (cycles) => split3(delay(m, io.origin, cycles, 'origin')),
      constantsAt,
    });
    io.hit.set(m.regNext(test.hit, { name: 'hit_out' }));
    io.t.set(m.regNext(test.t, { name: 't_out' }));
    io.u.set(m.regNext(test.u, { name: 'u_out' }));
    io.v.set(m.regNext(test.v, { name: 'v_out' }));
    io.det.set(m.regNext(test.det, { name: 'det_out' }));
    io.normal.set(m.regNext(test.normal, { name: 'normal_out' }));
  },
);
