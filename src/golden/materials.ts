// Materials of a scene: the Wavefront MTL parser, point lights, and loading an OBJ file with its material libraries.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { objText, parseObjWithMaterials, SceneError, type Scene } from './scene.ts';

export type Rgb = readonly [number, number, number];

/** The colours of one shader id. */
export interface Material {
  readonly name: string;
  /** Diffuse colour (MTL `Kd`), each channel 0..1. */
  readonly kd: Rgb;
  /** Emitted colour (MTL `Ke`, ≥ 0): a material with a non-zero one is a light source, drawn in this colour unlit. */
  readonly ke?: Rgb;
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
 * its diffuse colour, `Ke r g b` (≥ 0) its emission. Every other directive is ignored. A name defined
 * twice keeps its first definition. Errors read `file:line: error: …`.
 */
export function parseMtl(text: string, file: string): Map<string, Material> {
  const out = new Map<string, { name: string; kd: Rgb; ke?: Rgb }>();
  let current: { name: string; kd: Rgb; ke?: Rgb } | undefined;
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
 * error at its mtllib line.
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
      for (const [n, m] of parseMtl(mtl, mtlPath)) if (!library.has(n)) library.set(n, m);
    }
  }
  const materials = obj.materialNames.length === 0 ? [defaultMaterial()] : obj.materialNames.map((n) => library.get(n) ?? defaultMaterial(n));
  return { scene: obj.scene, materials };
}
