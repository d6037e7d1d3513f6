// A double-precision model of the `shade` kernel's formula for tests: the golden caster for `trace`, the rest in doubles.
import { castRay, testTriangle } from '../../src/golden/rayCaster.ts';
import { SHADOW_RAY_QUERY } from '../../src/host/frame.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import { isEmissive, type Light, type Material, type Rgb } from '../../src/scenes/materials.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { referenceDirection, type Camera } from '../../src/host/camera.ts';

export interface ReferencePixel {
  readonly rgb: Rgb;
  /** The primary hit's shader id (0: a miss) and hit point. */
  readonly shader: number;
  readonly point: Rgb;
  /** Per light: the shader id of what blocks it, 0 if it lights the point, undefined if it is behind the surface. */
  readonly shadow: (number | undefined)[];
}

export interface ReferenceSetup {
  readonly camera: Camera;
  readonly width: number;
  readonly height: number;
  readonly scene: Scene;
  readonly materials: readonly Material[];
  readonly lights: readonly Light[];
  readonly sky: Rgb;
  readonly ambient: Rgb;
  readonly shadowOffset: number;
}

type V = [number, number, number];
const bits3 = (v: readonly number[]): [number, number, number] => [fromNumber(v[0]!), fromNumber(v[1]!), fromNumber(v[2]!)];
const num3 = (v: readonly number[]): V => [toNumber(v[0]!), toNumber(v[1]!), toNumber(v[2]!)];
const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

export function referenceShade(s: ReferenceSetup, px: number, py: number): ReferencePixel {
  const d = referenceDirection(s.camera, s.width, s.height, px, py);
  const primary = castRay(s.scene, bits3(s.camera.eye), bits3(d));
  const shader = primary.hit[3];
  const point = num3(primary.hit);
  if (shader === 0) return { rgb: s.sky, shader, point, shadow: [] };
  const m = s.materials[shader - 1]!;
  if (isEmissive(m)) return { rgb: m.ke!, shader, point, shadow: [] };
  let n = num3(primary.normal);
  if (dot(n, d) > 0) n = n.map((x) => -x) as V;
  const len = Math.sqrt(dot(n, n));
  n = n.map((x) => x / len) as V;
  const o = point.map((x, i) => x + s.shadowOffset * n[i]!) as V;
  const rgb = m.kd.map((k, i) => k * s.ambient[i]!) as V;
  const shadow = s.lights.map((light) => {
    const l = light.position.map((x, i) => x - o[i]!) as V;
    const dist2 = dot(l, l);
    const cos = dot(n, l) / Math.sqrt(dist2);
    if (cos <= 0) return undefined;
    // The kernel's shadow query: any accepted hit before the light (t < 1) blocks it.
    const shadow = castRay(s.scene, bits3(o), bits3(l), testTriangle, SHADOW_RAY_QUERY);
    if (shadow.hit[3] !== 0) return shadow.hit[3];
    for (let i = 0; i < 3; i++) rgb[i]! += m.kd[i]! * light.colour[i]! * cos;
    return 0;
  });
  return { rgb, shader, point, shadow };
}
