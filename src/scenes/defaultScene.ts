// The built-in scene: a small Cornell-box-like room (36 triangles) used when `rtgpu run` is given no --scene.
import { fromNumber } from '../golden/float32.ts';
import type { Scene } from '../golden/scene.ts';
import type { Light, Material } from './materials.ts';

/**
 * Shader ids of the default scene. Kernels choose colours by these numbers; 0 is a miss.
 */
export const DEFAULT_SHADERS = { white: 1, red: 2, green: 3, light: 4, box: 5, tetrahedron: 6 } as const;

/*
 * Geometry (right-handed, y up): the room spans x ∈ [−1, 1], y ∈ [0, 2], z ∈ [−1, 1] and is open
 * towards +z, where a camera at about (0, 1, 3.5) looking down −z sees it whole. Floor, ceiling and
 * back wall are white, the left wall (x = −1) red, the right wall (x = 1) green; a light panel hangs
 * just below the ceiling, under the two point lights. A tall box stands on the left of the floor, a short box at
 * the back right and a tetrahedron at the front right.
 * The panel is a light fixture that casts no shadow, each half by another rule of the shadow rays' query
 * (docs/rays.md, the lighting of shade.s): its first triangle is one-sided, facing the lamps, so the shadow rays
 * (CULL_BACK) pass its back; its second has geometry mask 0x02, which the shadow rays' mask 0x01 does not meet.
 * Without either rule its half would throw a shadow onto the middle of the floor.
 * Every coordinate is a short binary fraction, so each is exact in binary32.
 */
type P = readonly [number, number, number];

/** A triangle's geometry mask (default 0xFF) and whether it is one-sided (docs/rays.md). */
interface TriangleOptions {
  readonly mask?: number;
  readonly oneSided?: boolean;
}

/** The geometry mask of the panel's second triangle: without SHADOW_CASTER_MASK, the shadow rays' mask. */
export const NO_SHADOW_MASK = 0x02;

class Builder {
  readonly vertices: number[] = [];
  readonly triangles: number[] = [];
  readonly masks: number[] = [];
  readonly oneSided: number[] = [];

  private vertex(p: P): number {
    this.vertices.push(...p.map(fromNumber));
    return this.vertices.length / 3 - 1;
  }

  triangle(a: P, b: P, c: P, shader: number, options: TriangleOptions = {}): void {
    this.triangles.push(this.vertex(a), this.vertex(b), this.vertex(c), shader);
    this.masks.push(options.mask ?? 0xff);
    this.oneSided.push(options.oneSided ? 1 : 0);
  }

  /** A quad a-b-c-d (in order around its edge) as triangles a-b-c and a-c-d. */
  quad(a: P, b: P, c: P, d: P, shader: number): void {
    const [ia, ib, ic, id] = [a, b, c, d].map((p) => this.vertex(p)) as [number, number, number, number];
    this.triangles.push(ia, ib, ic, shader, ia, ic, id, shader);
    this.masks.push(0xff, 0xff);
    this.oneSided.push(0, 0);
  }

  /** An axis-aligned box from lo to hi without its bottom face (it stands on the floor): 10 triangles. */
  box(lo: P, hi: P, shader: number): void {
    const [x0, y0, z0] = lo;
    const [x1, y1, z1] = hi;
    this.quad([x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0], shader); // top
    this.quad([x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1], shader); // front (+z)
    this.quad([x1, y0, z0], [x0, y0, z0], [x0, y1, z0], [x1, y1, z0], shader); // back (−z)
    this.quad([x0, y0, z0], [x0, y0, z1], [x0, y1, z1], [x0, y1, z0], shader); // left (−x)
    this.quad([x1, y0, z1], [x1, y0, z0], [x1, y1, z0], [x1, y1, z1], shader); // right (+x)
  }

  build(): Scene {
    return { vertices: Uint32Array.from(this.vertices), triangles: Uint32Array.from(this.triangles), masks: Uint8Array.from(this.masks), oneSided: Uint8Array.from(this.oneSided) };
  }
}

/** The default scene (vertices are not shared between faces: 36 triangles, 76 vertices). */
export function defaultScene(): Scene {
  const s = new Builder();
  const S = DEFAULT_SHADERS;
  s.quad([-1, 0, 1], [1, 0, 1], [1, 0, -1], [-1, 0, -1], S.white); // floor
  s.quad([-1, 2, -1], [1, 2, -1], [1, 2, 1], [-1, 2, 1], S.white); // ceiling
  s.quad([-1, 0, -1], [1, 0, -1], [1, 2, -1], [-1, 2, -1], S.white); // back wall
  s.quad([-1, 0, 1], [-1, 0, -1], [-1, 2, -1], [-1, 2, 1], S.red); // left wall
  s.quad([1, 0, -1], [1, 0, 1], [1, 2, 1], [1, 2, -1], S.green); // right wall
  lightPanel(s, [-0.25, 1.9375, -0.25], [0.25, 1.9375, -0.25], [0.25, 1.9375, 0.25], [-0.25, 1.9375, 0.25]);
  s.box([-0.75, 0, -0.5], [-0.125, 1.25, 0.125], S.box);
  s.box([0.25, 0, -0.75], [0.75, 0.5, -0.25], S.box);
  const apex: P = [0.5, 0.875, 0.25];
  const base: P[] = [
    [0.25, 0, 0],
    [0.875, 0, 0],
    [0.5, 0, 0.625],
  ];
  s.triangle(base[0]!, base[2]!, base[1]!, S.tetrahedron);
  s.triangle(base[0]!, base[1]!, apex, S.tetrahedron);
  s.triangle(base[1]!, base[2]!, apex, S.tetrahedron);
  s.triangle(base[2]!, base[0]!, apex, S.tetrahedron);
  return s.build();
}

/**
 * The light panel a-b-c-d (counter-clockwise seen from above): a-c-b one-sided and facing up (its front is the side
 * cross(e1, e2) points to), so a shadow ray coming from below meets its back; a-d-c double-sided with mask
 * NO_SHADOW_MASK. Both are the emissive `light` material, which primary rays (plain trace) see from either side.
 */
function lightPanel(s: Builder, a: P, b: P, c: P, d: P): void {
  s.triangle(a, c, b, DEFAULT_SHADERS.light, { oneSided: true });
  s.triangle(a, d, c, DEFAULT_SHADERS.light, { mask: NO_SHADOW_MASK });
}

/** Materials of the default scene, index = shader id − 1 (DEFAULT_SHADERS): Cornell-box colours. */
export function defaultMaterials(): Material[] {
  return [
    { name: 'white', kd: [0.75, 0.74, 0.72] },
    { name: 'red', kd: [0.7, 0.08, 0.06] },
    { name: 'green', kd: [0.12, 0.52, 0.1] },
    { name: 'light', kd: [0.8, 0.8, 0.8], ke: [1, 0.96, 0.88] },
    { name: 'box', kd: [0.8, 0.76, 0.62] },
    { name: 'tetrahedron', kd: [0.2, 0.35, 0.8] },
  ];
}

/** Two point lights just above the light panel (which is at y = 1.9375, the ceiling at 2), one over each of its halves; warm white in total. */
export function defaultLights(): Light[] {
  return [
    { position: [-0.125, 1.96875, 0], colour: [0.44, 0.42, 0.38] },
    { position: [0.125, 1.96875, 0], colour: [0.44, 0.42, 0.38] },
  ];
}
