// The pinhole camera of the render job: the host turns eye/look/up/fov into constants, and the kernels
// form each pixel's ray from them on the GPU (docs/host-interface.md, "Camera").
export type Vec3 = readonly [number, number, number];

export interface Camera {
  readonly eye: Vec3;
  readonly look: Vec3;
  readonly up: Vec3;
  /** Vertical field of view in degrees. */
  readonly fov: number;
}

/** Looks into the built-in Cornell box (open towards +z) from the front. */
export const defaultCamera: Camera = { eye: [0, 1, 3.5], look: [0, 1, 0], up: [0, 1, 0], fov: 40 };

/** Low over the textured scene's floor, looking along it: near squares several pixels wide, far ones below a pixel. */
export const TEXTURED_CAMERA: Camera = { eye: [0, 0.5, 1.45], look: [0, 0.05, -0.2], up: [0, 1, 0], fov: 50 };

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const length = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
const normalize = (a: Vec3): Vec3 => scale(a, 1 / length(a));

/** Constant-memory words of the camera, binary32 unless noted (word offsets from 0x20000000). */
export const CAMERA_LAYOUT = {
  /** eye x, y, z, 0 */
  eye: 0,
  /** forward = normalize(look − eye), 0 */
  forward: 4,
  /** right · (W/H) · tan(fov/2), 0 */
  right: 8,
  /** up' · tan(fov/2), 0 */
  up: 12,
  /** image width and height (int32), 1/width, 1/height (binary32) */
  size: 16,
  words: 20,
} as const;

const bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;

/** Throws a one-line error for a camera that cannot form an image. */
export function cameraConstants(c: Camera, width: number, height: number): Uint32Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new Error(`image size must be positive whole numbers, got ${width}x${height}`);
  if (!(c.fov > 0 && c.fov < 180)) throw new Error(`--fov must be between 0 and 180 degrees, got ${c.fov}`);
  const toLook = sub(c.look, c.eye);
  if (length(toLook) === 0) throw new Error('the camera looks at its own eye (eye = look)');
  const forward = normalize(toLook);
  const side = cross(forward, c.up);
  if (length(side) < 1e-9) throw new Error('the up vector is parallel to the viewing direction');
  const right = normalize(side);
  const up = cross(right, forward);
  const t = Math.tan((c.fov * Math.PI) / 360);
  const words = new Uint32Array(CAMERA_LAYOUT.words);
  const put = (at: number, v: Vec3) => words.set(v.map(bits), at);
  put(CAMERA_LAYOUT.eye, c.eye);
  put(CAMERA_LAYOUT.forward, forward);
  put(CAMERA_LAYOUT.right, scale(right, (width / height) * t));
  put(CAMERA_LAYOUT.up, scale(up, t));
  words.set([width, height, bits(1 / width), bits(1 / height)], CAMERA_LAYOUT.size);
  return words;
}

/**
 * The ray of pixel (px, py) in double precision, straight from the formula (for tests: the kernels
 * compute it in binary32 on the GPU).
 */
export function referenceDirection(c: Camera, width: number, height: number, px: number, py: number): Vec3 {
  const forward = normalize(sub(c.look, c.eye));
  const right = normalize(cross(forward, c.up));
  const up = cross(right, forward);
  const t = Math.tan((c.fov * Math.PI) / 360);
  const u = ((px + 0.5) / width) * 2 - 1;
  const v = 1 - ((py + 0.5) / height) * 2;
  const d: Vec3 = [0, 1, 2].map((i) => forward[i]! + u * (width / height) * t * right[i]! + v * t * up[i]!) as unknown as Vec3;
  return normalize(d);
}
