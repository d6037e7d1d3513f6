// Framing a scene the user brought: a camera and point lights placed from the scene's axis-aligned bounds (`rtgpu render`).
import { toNumber } from '../golden/float32.ts';
import { defaultLights } from '../scenes/defaultScene.ts';
import type { Light, Rgb } from '../scenes/materials.ts';
import type { Scene } from '../golden/scene.ts';
import type { Camera, Vec3 } from './camera.ts';

export interface Bounds {
  readonly lo: Vec3;
  readonly hi: Vec3;
}

/** The vertical field of view of an auto-framed camera: the built-in camera's. */
export const AUTO_FOV = 40;
/** The bounding sphere, grown by this factor, just fills the narrower half-angle of the view. */
export const FRAME_MARGIN = 1.1;

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const length = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
const normalize = (a: Vec3): Vec3 => scale(a, 1 / length(a));

/**
 * Seven significant digits (about binary32's precision), and -0 as 0: the auto camera and lights are
 * rounded to what they print as, so the printed flags reproduce the image exactly.
 */
const tidy = (x: number): number => Number(x.toPrecision(7)) || 0;
const tidyVec = (v: Vec3): Vec3 => [tidy(v[0]), tidy(v[1]), tidy(v[2])];

/** The bounds of the vertices the triangles use (unused vertices do not count); undefined without triangles. */
export function sceneBounds(scene: Scene): Bounds | undefined {
  if (scene.triangles.length === 0) return undefined;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < scene.triangles.length; t += 4) {
    for (let k = 0; k < 3; k++) {
      const v = scene.triangles[t + k]!;
      for (let a = 0; a < 3; a++) {
        const x = toNumber(scene.vertices[3 * v + a]!);
        lo[a] = Math.min(lo[a]!, x);
        hi[a] = Math.max(hi[a]!, x);
      }
    }
  }
  return { lo: lo as unknown as Vec3, hi: hi as unknown as Vec3 };
}

export const boundsCentre = (b: Bounds): Vec3 => scale(add(b.lo, b.hi), 0.5);

/**
 * Half the bounds' diagonal, but never so small that eye and centre round to the same binary32 value
 * (a point far from the origin), and 1 for a single point at the origin.
 */
export function boundsRadius(b: Bounds): number {
  const c = boundsCentre(b);
  const r = Math.max(length(sub(b.hi, b.lo)) / 2, 1e-5 * Math.max(...c.map(Math.abs)));
  return r > 0 ? r : 1;
}

/**
 * The camera for `bounds`, keeping each part `given` as it is: look at the bounds' centre from the +z
 * side, far enough that the bounding sphere (× FRAME_MARGIN) fits both the vertical fov and the
 * horizontal one of a `aspect` = width/height image; up = +y, or −z when the view is vertical.
 */
export function autoCamera(bounds: Bounds, given: Partial<Camera>, aspect: number): Camera {
  const centre = boundsCentre(bounds);
  const fov = given.fov ?? AUTO_FOV;
  const halfV = (fov * Math.PI) / 360;
  const half = Math.min(halfV, Math.atan(aspect * Math.tan(halfV)));
  const distance = (boundsRadius(bounds) * FRAME_MARGIN) / Math.sin(half);
  const eye = given.eye ?? tidyVec(add(centre, [0, 0, distance]));
  const look = given.look ?? tidyVec(centre);
  const view = sub(look, eye);
  // Up must not be parallel to the view (a user's --eye straight above or below the look point).
  const vertical = Math.hypot(view[0], view[2]) <= 1e-3 * Math.abs(view[1]);
  const up = given.up ?? (vertical ? [0, 0, -1] : [0, 1, 0]);
  return { eye, look, up, fov };
}

/** The built-in scene's lights' total colour: N lights of a render share it equally. */
function totalLightColour(): Rgb {
  const sum = [0, 0, 0];
  for (const l of defaultLights()) l.colour.forEach((c, i) => (sum[i]! += c));
  return sum as unknown as Rgb;
}

/** Point lights at `positions`, each 1/N of the built-in lights' total warm white (two get exactly the built-in colours). */
export function lightsAt(positions: readonly Vec3[]): Light[] {
  const total = totalLightColour();
  const colour: Rgb = [total[0] / positions.length, total[1] / positions.length, total[2] / positions.length];
  return positions.map((position) => ({ position, colour }));
}

/**
 * As many lights as the built-in scene has (two), above and in front of the bounds' centre as the
 * camera sees it (towards the eye and up, one to each side), at a few bounding radii.
 */
export function autoLights(bounds: Bounds, camera: Camera): Light[] {
  const centre = boundsCentre(bounds);
  const r = boundsRadius(bounds);
  const forward = normalize(sub(camera.look, camera.eye));
  const right = normalize(cross(forward, camera.up));
  const up = cross(right, forward);
  const spot = (side: number): Vec3 => tidyVec(add(centre, scale(add(add(scale(forward, -2), scale(up, 2)), scale(right, side)), r)));
  const n = defaultLights().length;
  const sides = Array.from({ length: n }, (_, i) => (n === 1 ? 0 : -1 + (2 * i) / (n - 1)));
  return lightsAt(sides.map(spot));
}
