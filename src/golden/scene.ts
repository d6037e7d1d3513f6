// Scenes of triangles on binary32 bit patterns: the type, a Wavefront OBJ parser and the triangle-memory image.
import { fromNumber } from './float32.ts';

/**
 * A triangle scene. `vertices` holds x, y, z binary32 bit patterns per vertex; `triangles` holds
 * v0, v1, v2 (0-based vertex indices) and the shader id (≥ 1) per triangle.
 */
export interface Scene {
  readonly vertices: Uint32Array;
  readonly triangles: Uint32Array;
}

/** A scene input error; the message reads `file:line: error: …` (no line for whole-file errors). */
export class SceneError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly detail: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: error: ${detail}`);
    this.name = 'SceneError';
  }
}

export const vertexCount = (s: Scene): number => s.vertices.length / 3;
export const triangleCount = (s: Scene): number => s.triangles.length / 4;

// A decimal float as OBJ writers print it; anything else (inf, nan, hex) is rejected.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** State of the OBJ parser while it walks the lines. */
interface ObjState {
  readonly file: string;
  readonly vertices: number[];
  readonly triangles: number[];
  readonly materials: Map<string, number>;
  readonly mtllibs: ObjMaterialLibrary[];
  shader: number;
}

/** An `mtllib` line of an OBJ file: its line number and the library file names it lists. */
export interface ObjMaterialLibrary {
  readonly line: number;
  readonly files: readonly string[];
}

/** An OBJ file's scene together with what it says about materials (`loadObjFile` resolves them). */
export interface ParsedObj {
  readonly scene: Scene;
  /** `usemtl` names in order of first use: name i has shader id i + 1. */
  readonly materialNames: readonly string[];
  readonly mtllibs: readonly ObjMaterialLibrary[];
}

/** How far into a file objText looks for signs of binary data. */
const TEXT_PROBE_BYTES = 4096;

/**
 * The text of an OBJ file's bytes, or a SceneError saying it is not text: a NUL byte, or invalid UTF-8
 * outside a `#` comment, within the first TEXT_PROBE_BYTES (a PNG, a binary PLY or random bytes would
 * otherwise read as an OBJ file with no faces; Latin-1 comments stay readable).
 */
export function objText(bytes: Uint8Array, file: string): string {
  const head = bytes.subarray(0, TEXT_PROBE_BYTES);
  const nul = head.indexOf(0);
  if (nul >= 0) throw new SceneError(file, undefined, `not a text OBJ file (a NUL byte at byte ${nul}; binary data?)`);
  // stream: a multi-byte character cut at the probe's end is not an error.
  const lines = new TextDecoder('utf-8').decode(head, { stream: true }).split('\n');
  const bad = lines.findIndex((l) => l.replace(/#.*/, '').includes('\uFFFD'));
  if (bad >= 0) throw new SceneError(file, undefined, `not a text OBJ file (invalid UTF-8 on line ${bad + 1}; binary data?)`);
  return new TextDecoder('utf-8').decode(bytes); // (a leading byte-order mark dropped)
}

/**
 * Parse Wavefront OBJ text: `v x y z [w]` vertices (rounded to binary32), `f a b c …` faces (1-based or
 * negative relative indices; `a/b/c` forms use the vertex index; polygons fan-triangulated from their
 * first vertex), `usemtl NAME` selecting shader id 1 + the name's index in order of first appearance
 * (1 before any usemtl). Every other directive is ignored (`mtllib` lines are collected by
 * parseObjWithMaterials; `loadObjFile` in materials.ts reads them). A face may only name vertices defined
 * above it.
 */
export function parseObj(text: string, file: string): Scene {
  return parseObjWithMaterials(text, file).scene;
}

/** parseObj, also returning the `usemtl` names (by shader id) and the `mtllib` lines. */
export function parseObjWithMaterials(text: string, file: string): ParsedObj {
  const st: ObjState = { file, vertices: [], triangles: [], materials: new Map(), mtllibs: [], shader: 1 };
  text.split(/\r?\n/).forEach((raw, i) => parseObjLine(st, raw, i + 1));
  return {
    scene: { vertices: Uint32Array.from(st.vertices), triangles: Uint32Array.from(st.triangles) },
    materialNames: [...st.materials.keys()],
    mtllibs: st.mtllibs,
  };
}

function parseObjLine(st: ObjState, raw: string, line: number): void {
  const words = raw.replace(/#.*/, '').trim().split(/\s+/).filter((w) => w !== '');
  const [directive, ...args] = words;
  const fail = (detail: string): never => {
    throw new SceneError(st.file, line, detail);
  };
  if (directive === 'v') parseVertex(st, args, fail);
  else if (directive === 'f') parseFace(st, args, fail);
  else if (directive === 'usemtl') {
    if (args.length !== 1) fail(`usemtl expects one material name, got ${args.length}`);
    const name = args[0]!;
    if (!st.materials.has(name)) st.materials.set(name, st.materials.size + 1);
    st.shader = st.materials.get(name)!;
  } else if (directive === 'mtllib') st.mtllibs.push({ line, files: args });
}

function parseVertex(st: ObjState, args: string[], fail: (d: string) => never): void {
  if (args.length !== 3 && args.length !== 4) fail(`a vertex needs x y z (and optionally w), got ${args.length} values`);
  for (const a of args.slice(0, 3)) {
    if (!DECIMAL.test(a)) fail(`bad number '${a}'`);
    const x = Number(a);
    if (!Number.isFinite(Math.fround(x))) fail(`'${a}' is out of binary32 range`);
    st.vertices.push(fromNumber(x));
  }
}

function parseFace(st: ObjState, args: string[], fail: (d: string) => never): void {
  if (args.length < 3) fail(`a face needs at least 3 vertices, got ${args.length}`);
  const defined = st.vertices.length / 3;
  const idx = args.map((a) => {
    const first = a.split('/')[0]!;
    if (!/^[+-]?\d+$/.test(first)) fail(`bad vertex index '${a}'`);
    const n = Number(first);
    const at = n > 0 ? n - 1 : defined + n;
    if (n === 0 || at < 0 || at >= defined) fail(`vertex index ${n} out of range (${defined} vertices defined so far)`);
    return at;
  });
  for (let k = 1; k + 1 < idx.length; k++) st.triangles.push(idx[0]!, idx[k]!, idx[k + 1]!, st.shader);
}

/**
 * The triangle-memory image of the original team: per triangle the words v0, v1, v2, shader id; four
 * zero words; per vertex x, y, z and one unused (zero) word; four zero words.
 * Shader ids must be ≥ 1 (an all-zero triangle entry ends the list).
 */
export function sceneToImage(scene: Scene): Uint32Array {
  const nt = triangleCount(scene);
  const nv = vertexCount(scene);
  const out = new Uint32Array(4 * nt + 4 + 4 * nv + 4);
  for (let t = 0; t < nt; t++) {
    if (scene.triangles[4 * t + 3] === 0) throw new SceneError('<scene>', undefined, `triangle ${t} has shader id 0 (ids start at 1)`);
    out.set(scene.triangles.subarray(4 * t, 4 * t + 4), 4 * t);
  }
  const vbase = 4 * nt + 4;
  for (let v = 0; v < nv; v++) out.set(scene.vertices.subarray(3 * v, 3 * v + 3), vbase + 4 * v);
  return out;
}

/** The inverse of sceneToImage for an image of exactly that layout (its length fixes the vertex count). */
export function imageToScene(words: Uint32Array, file = '<image>'): Scene {
  const fail = (detail: string): never => {
    throw new SceneError(file, undefined, detail);
  };
  if (words.length % 4 !== 0) fail(`image length ${words.length} is not a multiple of 4 words`);
  let nt = 0;
  while (4 * nt + 3 < words.length && words.subarray(4 * nt, 4 * nt + 4).some((w) => w !== 0)) nt++;
  const vbase = 4 * nt + 4;
  if (vbase + 4 > words.length) fail('the image ends before the triangle list and vertex list are both terminated');
  const nv = (words.length - vbase - 4) / 4;
  if (words.subarray(words.length - 4).some((w) => w !== 0)) fail('the image does not end with four zero words');
  const triangles = words.slice(0, 4 * nt);
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) if (triangles[4 * t + k]! >= nv) fail(`triangle ${t} names vertex ${triangles[4 * t + k]} of ${nv}`);
  }
  const vertices = new Uint32Array(3 * nv);
  for (let v = 0; v < nv; v++) vertices.set(words.subarray(vbase + 4 * v, vbase + 4 * v + 3), 3 * v);
  return { vertices, triangles };
}
