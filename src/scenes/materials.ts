// Materials of a scene: the Wavefront MTL parser, point lights, and loading an OBJ file with its material libraries.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { DEFAULT_GEOMETRY_MASK, objText, parseObjWithMaterials, SceneError, triangleCount, type Scene } from '../golden/scene.ts';
import { decodePngTexture } from './pngTexture.ts';
import type { TextureImage } from '../golden/texture/index.ts';

export type Rgb = readonly [number, number, number];

/** The colours of one shader id. */
export interface Material {
  readonly name: string;
  /** Diffuse colour (MTL `Kd`), each channel 0..1. */
  readonly kd: Rgb;
  /** Emitted colour (MTL `Ke`, ≥ 0): a material with a non-zero one is a light source, drawn in this colour unlit. */
  readonly ke?: Rgb;
  /** Diffuse texture (MTL `map_Kd`): as MTL defines it, the diffuse colour is `kd` times the texel (no GPU kernel samples it yet). */
  readonly texture?: MaterialTexture;
  /** Geometry mask of its triangles (MTL `rt_mask M`, 0–255; docs/rays.md); absent: 0xFF. */
  readonly mask?: number;
  /** Its triangles are one-sided (MTL `rt_one_sided`): a ray query may cull a face of them; absent: double-sided. */
  readonly oneSided?: boolean;
}

/** A material's texture: the image file (as the MTL names it, resolved against the MTL's folder) and its decoded texels. */
export interface MaterialTexture {
  readonly file: string;
  readonly image: TextureImage;
}

/** Reads and decodes a texture image file; throws an Error whose message says why it could not. */
export type TextureLoader = (path: string) => TextureImage;

/** The PNG texture loader: the file read and decoded with pngjs (decodePngTexture); each path decoded once. */
export function pngTextureLoader(): TextureLoader {
  const cache = new Map<string, TextureImage>();
  return (path) => {
    let image = cache.get(path);
    if (image === undefined) {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(path);
      } catch (e) {
        throw new Error(`cannot read it: ${readFailure(e)}`);
      }
      image = decodePngTexture(bytes);
      cache.set(path, image);
    }
    return image;
  };
}

/** A point light for the `shade` kernel. */
export interface Light {
  readonly position: Rgb;
  readonly colour: Rgb;
}

/** The colour of a material no library defines (and of a scene without usemtl): neutral gray. */
export const DEFAULT_KD: Rgb = [0.8, 0.8, 0.8];

export const defaultMaterial = (name = 'default'): Material => ({ name, kd: DEFAULT_KD });

/** A material is emissive when its `ke` has a non-zero channel. */
export const isEmissive = (m: Material): boolean => m.ke !== undefined && m.ke.some((c) => c !== 0);

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parse Wavefront MTL text: `newmtl NAME` starts a material, `Kd r g b` (0..1; one value means gray) sets
 * its diffuse colour, `Ke r g b` (≥ 0) its emission, `map_Kd FILE` its diffuse texture (FILE relative to
 * the MTL file's folder, read by `loadTexture`: by default a PNG decoded with pngjs; map_Kd options such as
 * `-s` and `-o` are refused), `rt_mask M` (an integer 0–255) its triangles' geometry mask and `rt_one_sided` (no
 * arguments) makes them one-sided (docs/rays.md). Every other directive is ignored. A name defined twice keeps its first
 * definition. Errors read `file:line: error: …`, a texture's too (missing or undecodable image).
 */
export function parseMtl(text: string, file: string, loadTexture: TextureLoader = pngTextureLoader()): Map<string, Material> {
  type Parsed = { name: string; kd: Rgb; ke?: Rgb; texture?: MaterialTexture; mask?: number; oneSided?: boolean };
  const out = new Map<string, Parsed>();
  let current: Parsed | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const fail = (detail: string): never => {
      throw new SceneError(file, i + 1, detail);
    };
    const [directive, ...args] = raw.replace(/#.*/, '').trim().split(/\s+/).filter((w) => w !== '');
    if (directive === 'newmtl') {
      if (args.length !== 1) fail(`newmtl expects one material name, got ${args.length}`);
      current = { name: args[0]!, kd: DEFAULT_KD };
      // A repeated name is parsed (so its errors are reported) but does not replace the first.
      if (!out.has(current.name)) out.set(current.name, current);
    } else if (directive === 'Kd' || directive === 'Ke') {
      const what = directive === 'Kd' ? 'r g b (numbers from 0 to 1)' : 'r g b (numbers ≥ 0)';
      if (current === undefined) fail(`${directive} before any newmtl`);
      if (args.length !== 1 && args.length !== 3) fail(`${directive} needs ${what}, got ${args.length} values`);
      const rgb = args.map((a) => {
        if (!DECIMAL.test(a)) fail(`bad ${directive} value '${a}'`);
        const x = Number(a);
        if (x < 0 || (directive === 'Kd' && x > 1) || !Number.isFinite(x)) fail(`${directive} value ${a} is out of range (${directive === 'Kd' ? '0 to 1' : '0 or more'})`);
        return x;
      });
      const colour: Rgb = rgb.length === 1 ? [rgb[0]!, rgb[0]!, rgb[0]!] : [rgb[0]!, rgb[1]!, rgb[2]!];
      if (directive === 'Kd') current!.kd = colour;
      else current!.ke = colour;
    } else if (directive === 'rt_mask') {
      if (current === undefined) fail('rt_mask before any newmtl');
      if (args.length !== 1) fail(`rt_mask needs one mask (an integer from 0 to 255), got ${args.length} values`);
      if (!/^\d+$/.test(args[0]!) || Number(args[0]) > 0xff) fail(`bad rt_mask '${args[0]}' (an integer from 0 to 255)`);
      current!.mask = Number(args[0]);
    } else if (directive === 'rt_one_sided') {
      if (current === undefined) fail('rt_one_sided before any newmtl');
      if (args.length !== 0) fail(`rt_one_sided takes no values, got ${args.length}`);
      current!.oneSided = true;
    } else if (directive === 'map_Kd') {
      if (current === undefined) fail('map_Kd before any newmtl');
      if (args.length === 0) fail('map_Kd needs an image file name');
      const option = args.find((a) => a.startsWith('-'));
      if (option !== undefined) fail(`map_Kd option '${option}' is not supported (no map_Kd options are: scale or offset the vt coordinates instead)`);
      const name = args.join(' ');
      const path = isAbsolute(name) ? name : join(dirname(file), name);
      try {
        current!.texture = { file: path, image: loadTexture(path) };
      } catch (e) {
        fail(`map_Kd '${name}' (${path}): ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  });
  return out as Map<string, Material>;
}

/** A read error as a short phrase (no stack, no errno prefix). */
function readFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES') return 'permission denied';
  return e instanceof Error ? e.message : String(e);
}

/**
 * Load an OBJ file and its materials: `materials[i]` belongs to shader id i + 1 (the `usemtl` names in
 * order of first use; one gray default when the file has no usemtl). `mtllib` files are read relative
 * to the OBJ file's directory; a name no library defines gets the gray default. A missing library is an
 * error at its mtllib line; a missing or undecodable `map_Kd` image an error at its MTL line. Materials
 * naming the same image file share one decoded `MaterialTexture.image`.
 */
export function loadObjFile(path: string): { scene: Scene; materials: Material[] } {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new SceneError(path, undefined, `cannot read the scene: ${readFailure(e)}`);
  }
  const text = objText(bytes, path);
  const obj = parseObjWithMaterials(text, path);
  const library = new Map<string, Material>();
  const loadTexture = pngTextureLoader(); // a PNG shared by several materials is decoded once
  for (const lib of obj.mtllibs) {
    if (lib.files.length === 0) throw new SceneError(path, lib.line, 'mtllib needs at least one file name');
    for (const name of lib.files) {
      const mtlPath = join(dirname(path), name);
      let mtl: string;
      try {
        mtl = readFileSync(mtlPath, 'utf8');
      } catch (e) {
        throw new SceneError(path, lib.line, `cannot read material library '${name}' (${mtlPath}): ${readFailure(e)}`);
      }
      for (const [n, m] of parseMtl(mtl, mtlPath, loadTexture)) if (!library.has(n)) library.set(n, m);
    }
  }
  const materials = obj.materialNames.length === 0 ? [defaultMaterial()] : obj.materialNames.map((n) => library.get(n) ?? defaultMaterial(n));
  return { scene: withMaterialAttributes(obj.scene, materials), materials };
}

/**
 * The scene with each triangle's geometry mask and side from its material (`materials[shader id − 1]`: rt_mask,
 * rt_one_sided); unchanged when no material sets either, so scenes without them stay as they were.
 */
export function withMaterialAttributes(scene: Scene, materials: readonly Material[]): Scene {
  const n = triangleCount(scene);
  const of = (t: number): Material | undefined => materials[scene.triangles[4 * t + 3]! - 1];
  const out: { -readonly [K in keyof Scene]: Scene[K] } = { ...scene };
  if (materials.some((m) => m.mask !== undefined)) out.masks = Uint8Array.from({ length: n }, (_, t) => of(t)?.mask ?? DEFAULT_GEOMETRY_MASK);
  if (materials.some((m) => m.oneSided === true)) out.oneSided = Uint8Array.from({ length: n }, (_, t) => (of(t)?.oneSided ? 1 : 0));
  return out;
}
