// The auto-framed camera and auto-placed lights of a user's scene: the bounds fit the view, degenerate bounds still give a camera.
import { describe, expect, test } from 'vitest';
import { AUTO_FOV, autoCamera, autoLights, boundsCentre, lightsAt, sceneBounds, type Bounds } from '../../src/host/autoFrame.ts';
import { cameraConstants, type Camera, type Vec3 } from '../../src/host/camera.ts';
import { defaultLights } from '../../src/scenes/defaultScene.ts';
import { parseObj } from '../../src/golden/scene.ts';

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: Vec3): number => Math.hypot(...a);
const bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const corners = (b: Bounds): Vec3[] => [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [(i & 1 ? b.hi : b.lo)[0], (i & 2 ? b.hi : b.lo)[1], (i & 4 ? b.hi : b.lo)[2]]);

/** Whether p is inside the view of an aspect = width/height image (angles from the camera's axes). */
function inView(c: Camera, aspect: number, p: Vec3): boolean {
  const f = sub(c.look, c.eye);
  const forward: Vec3 = f.map((x) => x / norm(f)) as unknown as Vec3;
  const d = sub(p, c.eye);
  const along = dot(d, forward);
  const t = Math.tan((c.fov * Math.PI) / 360);
  // The camera of these tests has up +y and looks along −z, so right is +x.
  return along > 0 && Math.abs(d[1]) / along <= t && Math.abs(d[0]) / along <= t * aspect;
}

/** A camera cameraConstants accepts, with every word finite and eye and look apart in binary32. */
function expectUsable(c: Camera): void {
  const words = cameraConstants(c, 16, 12);
  const floats = new Float32Array(words.buffer);
  for (const i of [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14]) expect(Number.isFinite(floats[i]), `word ${i}`).toBe(true);
  expect(c.eye.map(bits)).not.toEqual(c.look.map(bits));
}

describe('auto framing', () => {
  test('the bounds are those of the vertices the triangles use', () => {
    const scene = parseObj('v 1000 1000 1000\nv 1 2 3\nv 2 2 3\nv 1 4 -3\nf 2 3 4\n', 's.obj');
    expect(sceneBounds(scene)).toEqual({ lo: [1, 2, -3], hi: [2, 4, 3] });
    expect(sceneBounds(parseObj('v 0 0 0\n', 'e.obj'))).toBeUndefined();
  });

  test('a small model far from the origin: look at its centre from +z, every corner in view, with a margin', () => {
    const b: Bounds = { lo: [100, 50, -20], hi: [100.01, 50.01, -19.99] };
    for (const aspect of [16 / 12, 1, 0.5]) {
      const c = autoCamera(b, {}, aspect);
      expect(c.look).toEqual([100.005, 50.005, -19.995]);
      expect([c.eye[0], c.eye[1]]).toEqual([100.005, 50.005]);
      expect(c.eye[2]).toBeGreaterThan(-19.99);
      expect(c.up).toEqual([0, 1, 0]);
      expect(c.fov).toBe(AUTO_FOV);
      for (const p of corners(b)) expect(inView(c, aspect, p), `${p} at aspect ${aspect}`).toBe(true);
      // Not absurdly far: the bounding sphere fills most of the narrower half of the view.
      const radius = norm(sub(b.hi, b.lo)) / 2;
      const half = Math.min(AUTO_FOV / 2, (Math.atan(aspect * Math.tan((AUTO_FOV * Math.PI) / 360)) * 180) / Math.PI);
      expect(radius / (c.eye[2] - c.look[2])).toBeGreaterThan(0.8 * Math.sin((half * Math.PI) / 180));
      expectUsable(c);
    }
  });

  test('each given part is kept as given and only that part', () => {
    const b: Bounds = { lo: [-1, 0, -2], hi: [3, 2, 0] };
    const auto = autoCamera(b, {}, 4 / 3);
    expect(autoCamera(b, { look: [0, 0, 0] }, 4 / 3)).toEqual({ ...auto, look: [0, 0, 0] });
    expect(autoCamera(b, { eye: [5, 1, 5] }, 4 / 3)).toEqual({ ...auto, eye: [5, 1, 5] });
    expect(autoCamera(b, { up: [1, 1, 0] }, 4 / 3)).toEqual({ ...auto, up: [1, 1, 0] });
    // The fov sets how far the auto eye stands: a narrower view, a farther eye.
    const narrow = autoCamera(b, { fov: 20 }, 4 / 3);
    expect(narrow.fov).toBe(20);
    expect(narrow.look).toEqual(auto.look);
    expect(narrow.eye[2]).toBeGreaterThan(auto.eye[2]);
    const given: Camera = { eye: [1, 2, 3], look: [4, 5, 6], up: [0, 0, 1], fov: 33 };
    expect(autoCamera(b, given, 4 / 3)).toEqual(given);
  });

  test('degenerate bounds still give a usable camera: a point, a plane, a point far away, a huge scene', () => {
    const cases: Bounds[] = [
      { lo: [0, 0, 0], hi: [0, 0, 0] },
      { lo: [1e4, -3e3, 7], hi: [1e4, -3e3, 7] },
      { lo: [-1, -1, 5], hi: [1, 1, 5] }, // facing the camera
      { lo: [-1, 2, -1], hi: [1, 2, 1] }, // a floor, seen edge-on
      { lo: [3, -1, -1], hi: [3, 1, 1] }, // a wall, seen edge-on
      { lo: [-1e30, -1e30, -1e30], hi: [1e30, 1e30, 1e30] },
      { lo: [1e-20, 1e-20, 1e-20], hi: [2e-20, 2e-20, 2e-20] },
    ];
    for (const b of cases) {
      const c = autoCamera(b, {}, 4 / 3);
      expectUsable(c);
      expect(c.look).toEqual(boundsCentre(b).map((x) => Number(x.toPrecision(7)) || 0));
      for (const l of autoLights(b, c)) for (const x of l.position) expect(Number.isFinite(Math.fround(x))).toBe(true);
    }
  });

  test('an eye given straight above or below the centre: up turns to −z instead of lying along the view', () => {
    const b: Bounds = { lo: [-1, -1, -1], hi: [1, 1, 1] };
    for (const eye of [[0, 10, 0], [0, -10, 0]] as Vec3[]) {
      const c = autoCamera(b, { eye }, 1);
      expect(c.up).toEqual([0, 0, -1]);
      expectUsable(c);
    }
    expect(autoCamera(b, { eye: [0, 10, 1] }, 1).up).toEqual([0, 1, 0]);
  });

  test('lights: the built-in count and colours, above and in front of the centre as the camera sees it', () => {
    const b: Bounds = { lo: [100, 50, -20], hi: [100.01, 50.01, -19.99] };
    const c = autoCamera(b, {}, 4 / 3);
    const lights = autoLights(b, c);
    expect(lights.map((l) => l.colour)).toEqual(defaultLights().map((l) => l.colour));
    const centre = boundsCentre(b);
    for (const l of lights) {
      expect(l.position[1]).toBeGreaterThan(b.hi[1]);
      expect(l.position[2]).toBeGreaterThan(b.hi[2]);
      expect(norm(sub(l.position, centre))).toBeLessThan(0.1);
    }
    expect(lights[0]!.position[0]).toBeLessThan(centre[0]);
    expect(lights[1]!.position[0]).toBeGreaterThan(centre[0]);
    // Seen from below the lights move with the camera (still on the eye's side).
    const below = autoLights(b, autoCamera(b, { eye: [100.005, 40, -19.995] }, 1));
    for (const l of below) expect(l.position[1]).toBeLessThan(b.lo[1]);
  });

  test('N given lights share the built-in lights\' total colour; two at the built-in places are the built-in lights', () => {
    expect(lightsAt(defaultLights().map((l) => l.position))).toEqual(defaultLights());
    const one = lightsAt([[0, 5, 0]]);
    expect(one[0]!.colour.map((x) => x.toFixed(6))).toEqual(['0.880000', '0.840000', '0.760000']);
    expect(lightsAt([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]]).every((l) => l.colour[0] === 0.22)).toBe(true);
  });
});
