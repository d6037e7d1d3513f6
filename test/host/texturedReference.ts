// An independent float64 renderer of textured scenes, the oracle of the textured kernel's pictures: its own ray–triangle hits, its own
// (s, t) by barycentric interpolation, derivatives by central differences of neighbouring rays on the hit plane, its own box-filtered
// mip levels and trilinear or nearest lookup, the shade kernel's shadow rules (mask 0x01, CULL_BACK); or a supersampled box filter of the
// level-0 texture (the ground truth aliasing is judged by).
import { toNumber } from '../../src/golden/float32.ts';
import { TEXCOORD_WORDS, triangleCount, triangleMask, triangleOneSided, type Scene } from '../../src/golden/scene.ts';
import { isEmissive, type Light, type Material, type Rgb } from '../../src/scenes/materials.ts';
import type { Camera } from '../../src/host/camera.ts';

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const mul = (a: V, k: number): V => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: V): V => mul(a, 1 / Math.sqrt(dot(a, a)));

export interface ReferenceFrame {
  readonly scene: Scene;
  readonly materials: readonly Material[];
  readonly lights: readonly Light[];
  readonly sky: Rgb;
  readonly ambient: Rgb;
  readonly camera: Camera;
  readonly width: number;
  readonly height: number;
  /** Tell pixels at every triangle's edge apart (default: only where the shader id changes), for textures that are not continuous across edges. */
  readonly triangleEdges?: boolean;
}

/** How the texture is read: trilinear or nearest-of-nearest-level mip mapping, or point samples of level 0 (for supersampling). */
export type ReferenceFilter = 'trilinear' | 'nearest' | 'point';

interface Tri {
  readonly p: readonly [V, V, V];
  readonly uv: readonly [number, number, number, number, number, number];
  readonly shader: number;
  readonly mask: number;
  readonly oneSided: boolean;
}

/** Which triangles a ray meets: those sharing a bit with its mask, one-sided ones seen from behind not when culling (docs/rays.md). */
interface RayRule {
  readonly mask: number;
  readonly cullBack: boolean;
}
const CAMERA_RAY: RayRule = { mask: 0xff, cullBack: false };
// The kernels' shadow rays (SHADOW_RAY_QUERY): ray mask 0x01, CULL_BACK.
const SHADOW_RAY: RayRule = { mask: 0x01, cullBack: true };

interface Hit {
  readonly t: number;
  readonly tri: number;
  readonly b1: number;
  readonly b2: number;
}

/** Mip levels in double: level 0 the texels' bytes / 255, each next level the 2×2 mean (sizes are powers of two here). */
function mipLevels(m: Material): Float64Array[] | undefined {
  const img = m.texture?.image;
  if (img === undefined) return undefined;
  if (img.width !== img.height || (img.width & (img.width - 1)) !== 0) throw new Error('the reference takes square power-of-two textures');
  let size = img.width;
  let level = new Float64Array(size * size * 3);
  img.texels.forEach((w, i) => [0, 1, 2].forEach((c) => (level[3 * i + c] = ((w >>> (8 * c)) & 255) / 255)));
  const levels = [level];
  while (size > 1) {
    const half = size / 2;
    const next = new Float64Array(half * half * 3);
    for (let y = 0; y < half; y++)
      for (let x = 0; x < half; x++)
        for (let c = 0; c < 3; c++) {
          const at = (xx: number, yy: number) => level[3 * (yy * size + xx) + c]!;
          next[3 * (y * half + x) + c] = (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1)) / 4;
        }
    levels.push(next);
    level = next;
    size = half;
  }
  return levels;
}

export class TexturedReference {
  private readonly tris: Tri[] = [];
  private readonly levels: (Float64Array[] | undefined)[];
  private readonly eye: V;
  private readonly forward: V;
  private readonly right: V;
  private readonly up: V;
  private readonly shadowOffset: number;

  constructor(private readonly f: ReferenceFrame) {
    const { scene } = f;
    const vertex = (i: number): V => [0, 1, 2].map((k) => toNumber(scene.vertices[3 * i + k]!)) as V;
    for (let t = 0; t < triangleCount(scene); t++) {
      const uv = Array.from({ length: 6 }, (_, k) => (scene.texcoords ? toNumber(scene.texcoords[TEXCOORD_WORDS * t + k]!) : 0));
      this.tris.push({ p: [vertex(scene.triangles[4 * t]!), vertex(scene.triangles[4 * t + 1]!), vertex(scene.triangles[4 * t + 2]!)], uv: uv as unknown as Tri['uv'], shader: scene.triangles[4 * t + 3]!, mask: triangleMask(scene, t), oneSided: triangleOneSided(scene, t) });
    }
    this.levels = f.materials.map(mipLevels);
    const c = f.camera;
    this.eye = [...c.eye];
    this.forward = unit(sub([...c.look], this.eye));
    const right = unit(cross(this.forward, [...c.up]));
    const tan = Math.tan((c.fov * Math.PI) / 360);
    this.up = mul(cross(right, this.forward), tan);
    this.right = mul(right, (f.width / f.height) * tan);
    // As the host's: the scene's largest extent / 1024.
    let size = 0;
    for (let k = 0; k < 3; k++) {
      const xs = this.tris.flatMap((t) => t.p.map((p) => p[k]!));
      size = Math.max(size, Math.max(...xs) - Math.min(...xs));
    }
    this.shadowOffset = (size > 0 ? size : 1) / 1024;
  }

  /** The unnormalized primary direction through image point (x, y) in pixels (pixel centres at + 0.5). */
  direction(x: number, y: number): V {
    const u = (x / this.f.width) * 2 - 1;
    const v = 1 - (y / this.f.height) * 2;
    return add(add(this.forward, mul(this.right, u)), mul(this.up, v));
  }

  /** The closest hit with t > 0 (Möller–Trumbore) among the triangles `rule` lets the ray meet, or undefined. */
  cast(o: V, d: V, rule: RayRule = CAMERA_RAY): Hit | undefined {
    let best: Hit | undefined;
    this.tris.forEach((tri, i) => {
      if ((tri.mask & rule.mask) === 0) return;
      const e1 = sub(tri.p[1], tri.p[0]);
      const e2 = sub(tri.p[2], tri.p[0]);
      const pv = cross(d, e2);
      const det = dot(e1, pv);
      // det > 0: the ray meets the front face, the one cross(e1, e2) points out of.
      if (det === 0 || (rule.cullBack && tri.oneSided && det < 0)) return;
      const s = sub(o, tri.p[0]);
      const b1 = dot(s, pv) / det;
      const q = cross(s, e1);
      const b2 = dot(d, q) / det;
      const t = dot(e2, q) / det;
      if (b1 >= 0 && b2 >= 0 && b1 + b2 <= 1 && t > 0 && (best === undefined || t < best.t)) best = { t, tri: i, b1, b2 };
    });
    return best;
  }

  /** (s, t) of the point where the ray (o, d) meets triangle `tri`'s plane (barycentrics extended past its edges). */
  private texcoordOnPlane(tri: Tri, o: V, d: V): [number, number] {
    const e1 = sub(tri.p[1], tri.p[0]);
    const e2 = sub(tri.p[2], tri.p[0]);
    const pv = cross(d, e2);
    const det = dot(e1, pv);
    const s = sub(o, tri.p[0]);
    const b1 = dot(s, pv) / det;
    const b2 = dot(d, cross(s, e1)) / det;
    const at = (c: number) => (1 - b1 - b2) * tri.uv[c]! + b1 * tri.uv[2 + c]! + b2 * tri.uv[4 + c]!;
    return [at(0), at(1)];
  }

  /** The texture's colour at (s, t) of material `m` with derivatives by pixel, or level 0's texel for 'point'. */
  private texel(m: number, st: [number, number], deriv: [number, number, number, number], filter: ReferenceFilter): V {
    const levels = this.levels[m]!;
    const size0 = Math.sqrt(levels[0]!.length / 3);
    const read = (l: number, x: number, y: number): V => {
      const n = size0 >> l;
      const [xx, yy] = [((x % n) + n) % n, ((y % n) + n) % n];
      const at = 3 * (yy * n + xx);
      return [levels[l]![at]!, levels[l]![at + 1]!, levels[l]![at + 2]!];
    };
    const nearestIn = (l: number): V => read(l, Math.floor(st[0] * (size0 >> l)), Math.floor(st[1] * (size0 >> l)));
    if (filter === 'point') return nearestIn(0);
    const [dsdx, dsdy, dtdx, dtdy] = deriv;
    const rho = Math.max(Math.hypot(dsdx * size0, dtdx * size0), Math.hypot(dsdy * size0, dtdy * size0));
    const lambda = Math.min(Math.max(Math.log2(rho), 0), levels.length - 1);
    if (filter === 'nearest') return nearestIn(Math.max(0, Math.ceil(lambda + 0.5) - 1));
    const bilinear = (l: number): V => {
      const n = size0 >> l;
      const [u, v] = [st[0] * n - 0.5, st[1] * n - 0.5];
      const [i, j] = [Math.floor(u), Math.floor(v)];
      const [a, b] = [u - i, v - j];
      const lerp = (x: V, y: V, w: number): V => add(x, mul(sub(y, x), w));
      return lerp(lerp(read(l, i, j), read(l, i + 1, j), a), lerp(read(l, i, j + 1), read(l, i + 1, j + 1), a), b);
    };
    const d = Math.floor(lambda);
    const frac = lambda - d;
    return frac === 0 ? bilinear(d) : add(mul(bilinear(d), 1 - frac), mul(bilinear(d + 1), frac));
  }

  /**
   * The colour of image point (x, y) (pixel centres at + 0.5) as the shade kernel lights it, and its class
   * (shader id and which lights are blocked), for telling edge pixels apart.
   */
  shade(x: number, y: number, filter: ReferenceFilter): { rgb: V; key: string } {
    const d = this.direction(x, y);
    const hit = this.cast(this.eye, d);
    if (hit === undefined) return { rgb: [...this.f.sky], key: 'sky' };
    const tri = this.tris[hit.tri]!;
    const m = this.f.materials[tri.shader - 1]!;
    if (isEmissive(m)) return { rgb: [...m.ke!], key: `e${tri.shader}` };
    let kd: V = [...m.kd];
    if (this.levels[tri.shader - 1] !== undefined) {
      const h = 1 / 16;
      const at = (dx: number, dy: number) => this.texcoordOnPlane(tri, this.eye, this.direction(x + dx, y + dy));
      const [sx1, sx0, sy1, sy0] = [at(h, 0), at(-h, 0), at(0, h), at(0, -h)];
      const deriv: [number, number, number, number] = [(sx1[0] - sx0[0]) / (2 * h), (sy1[0] - sy0[0]) / (2 * h), (sx1[1] - sx0[1]) / (2 * h), (sy1[1] - sy0[1]) / (2 * h)];
      const tex = this.texel(tri.shader - 1, this.texcoordOnPlane(tri, this.eye, d), deriv, filter);
      kd = [kd[0] * tex[0], kd[1] * tex[1], kd[2] * tex[2]];
    }
    const p = add(this.eye, mul(d, hit.t));
    let n = cross(sub(tri.p[1], tri.p[0]), sub(tri.p[2], tri.p[0]));
    if (dot(n, d) > 0) n = mul(n, -1);
    n = unit(n);
    const origin = add(p, mul(n, this.shadowOffset));
    let rgb: V = [kd[0] * this.f.ambient[0], kd[1] * this.f.ambient[1], kd[2] * this.f.ambient[2]];
    let key = `s${tri.shader}${this.f.triangleEdges ? `t${hit.tri}` : ''}`;
    for (const light of this.f.lights) {
      const l = sub([...light.position], origin);
      const cos = dot(n, l) / Math.sqrt(dot(l, l));
      if (!(cos > 0)) continue;
      const blocker = this.cast(origin, l, SHADOW_RAY);
      const blocked = blocker !== undefined && blocker.t < 1;
      key += blocked ? 'b' : 'l';
      if (!blocked) rgb = add(rgb, [kd[0] * light.colour[0] * cos, kd[1] * light.colour[1] * cos, kd[2] * light.colour[2] * cos]);
    }
    return { rgb, key };
  }

  /**
   * The image as float RGB (row-major): one sample at each pixel centre, or with `samples` n > 1 the mean
   * of an n × n grid over the pixel. `robust[i]` is false where the centre's class differs from that of
   * points 0.02 pixel away (an edge of a triangle or a shadow: binary32 may fall either side).
   */
  render(filter: ReferenceFilter, samples = 1): { rgb: Float64Array; robust: Uint8Array } {
    const { width, height } = this.f;
    const rgb = new Float64Array(width * height * 3);
    const robust = new Uint8Array(width * height);
    for (let py = 0; py < height; py++)
      for (let px = 0; px < width; px++) {
        const i = py * width + px;
        let sum: V = [0, 0, 0];
        for (let sy = 0; sy < samples; sy++)
          for (let sx = 0; sx < samples; sx++) sum = add(sum, this.shade(px + (sx + 0.5) / samples, py + (sy + 0.5) / samples, filter).rgb);
        rgb.set(mul(sum, 1 / (samples * samples)), 3 * i);
        const key = this.shade(px + 0.5, py + 0.5, filter).key;
        const e = 0.02;
        robust[i] = [[e, 0], [-e, 0], [0, e], [0, -e]].every(([dx, dy]) => this.shade(px + 0.5 + dx!, py + 0.5 + dy!, filter).key === key) ? 1 : 0;
      }
    return { rgb, robust };
  }
}
