// Scenes of triangles on binary32 bit patterns: the type, a Wavefront OBJ parser and the triangle-memory image.
import { fromNumber } from './float32.ts';

/**
 * A triangle scene. `vertices` holds x, y, z binary32 bit patterns per vertex; `triangles` holds
 * v0, v1, v2 (0-based vertex indices) and the shader id (≥ 1) per triangle. `texcoords`, present only
 * when some face has texture coordinates, holds per triangle s0, t0, s1, t1, s2, t2 (binary32 bits, one
 * (s, t) per corner in the order v0, v1, v2); a triangle without them has six +0 words.
 */
export interface Scene {
  readonly vertices: Uint32Array;
  readonly triangles: Uint32Array;
  readonly texcoords?: Uint32Array;
  /** Per triangle its geometry mask (docs/rays.md: a ray whose mask shares no bit with it passes it by); absent: 0xFF each. */
  readonly masks?: Uint8Array;
  /** Per triangle 1 when it is one-sided (a ray query may cull a face of it), 0 double-sided; absent: all double-sided. */
  readonly oneSided?: Uint8Array;
}

/** A triangle's geometry mask when the scene gives none. */
export const DEFAULT_GEOMETRY_MASK = 0xff;

/** Triangle t's geometry mask (0xFF when the scene has no masks). */
export const triangleMask = (s: Scene, t: number): number => s.masks?.[t] ?? DEFAULT_GEOMETRY_MASK;
/** Whether triangle t is one-sided (false when the scene says nothing). */
export const triangleOneSided = (s: Scene, t: number): boolean => (s.oneSided?.[t] ?? 0) !== 0;

/** Words of `Scene.texcoords` per triangle: (s, t) at each of the three corners. */
export const TEXCOORD_WORDS = 6;

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
  /** `vt` lines so far: u, v (binary32 bits) each. */
  readonly uvs: number[];
  /** Per triangle so far: six texcoord words (zeros for a face without vt). */
  readonly texcoords: number[];
  /** Whether any face so far named texture coordinates. */
  textured: boolean;
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
 * Parse Wavefront OBJ text: `v x y z [w]` vertices (rounded to binary32), `vt u [v [w]]` texture
 * coordinates (v defaults to 0, w is ignored), `f a b c …` faces (1-based or negative relative indices;
 * the forms `v`, `v/vt`, `v/vt/vn` and `v//vn`, the same form at every corner of a face; normals are
 * ignored; polygons fan-triangulated from their first vertex), `usemtl NAME` selecting shader id 1 + the name's index in order of first appearance
 * (1 before any usemtl). Every other directive is ignored (`mtllib` lines are collected by
 * parseObjWithMaterials; `loadObjFile` in materials.ts reads them). A face may only name vertices defined
 * above it.
 */
export function parseObj(text: string, file: string): Scene {
  return parseObjWithMaterials(text, file).scene;
}

/** parseObj, also returning the `usemtl` names (by shader id) and the `mtllib` lines. */
export function parseObjWithMaterials(text: string, file: string): ParsedObj {
  const st: ObjState = { file, vertices: [], triangles: [], uvs: [], texcoords: [], textured: false, materials: new Map(), mtllibs: [], shader: 1 };
  text.split(/\r?\n/).forEach((raw, i) => parseObjLine(st, raw, i + 1));
  const scene: Scene = { vertices: Uint32Array.from(st.vertices), triangles: Uint32Array.from(st.triangles) };
  return {
    scene: st.textured ? { ...scene, texcoords: Uint32Array.from(st.texcoords) } : scene,
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
  else if (directive === 'vt') parseTexcoord(st, args, fail);
  else if (directive === 'f') parseFace(st, args, fail);
  else if (directive === 'usemtl') {
    if (args.length !== 1) fail(`usemtl expects one material name, got ${args.length}`);
    const name = args[0]!;
    if (!st.materials.has(name)) st.materials.set(name, st.materials.size + 1);
    st.shader = st.materials.get(name)!;
  } else if (directive === 'mtllib') st.mtllibs.push({ line, files: args });
}

/** A decimal OBJ number as binary32 bits, or a failure naming it. */
function objNumber(a: string, fail: (d: string) => never): number {
  if (!DECIMAL.test(a)) fail(`bad number '${a}'`);
  const x = Number(a);
  if (!Number.isFinite(Math.fround(x))) fail(`'${a}' is out of binary32 range`);
  return fromNumber(x);
}

function parseVertex(st: ObjState, args: string[], fail: (d: string) => never): void {
  if (args.length !== 3 && args.length !== 4) fail(`a vertex needs x y z (and optionally w), got ${args.length} values`);
  for (const a of args.slice(0, 3)) st.vertices.push(objNumber(a, fail));
}

function parseTexcoord(st: ObjState, args: string[], fail: (d: string) => never): void {
  if (args.length < 1 || args.length > 3) fail(`a texture coordinate needs u (and optionally v and w), got ${args.length} values`);
  const [u, v] = args.slice(0, 2).map((a) => objNumber(a, fail));
  st.uvs.push(u!, v ?? 0);
}

/** A 1-based or negative (relative) OBJ index into `defined` items, as a 0-based index. */
function objIndex(text: string, what: string, defined: number, corner: string, fail: (d: string) => never): number {
  if (!/^[+-]?\d+$/.test(text)) fail(`bad ${what} index '${corner}'`);
  const n = Number(text);
  const at = n > 0 ? n - 1 : defined + n;
  const items = what === 'vertex' ? (defined === 1 ? 'vertex' : 'vertices') : defined === 1 ? 'texture coordinate' : 'texture coordinates';
  if (n === 0 || at < 0 || at >= defined) fail(`${what} index ${n} out of range (${defined} ${items} defined so far)`);
  return at;
}

function parseFace(st: ObjState, args: string[], fail: (d: string) => never): void {
  if (args.length < 3) fail(`a face needs at least 3 vertices, got ${args.length}`);
  const defined = st.vertices.length / 3;
  const corners = args.map((a) => {
    const [v, vt, vn, ...rest] = a.split('/');
    if (rest.length > 0 || (vn !== undefined && vn !== '' && !/^[+-]?\d+$/.test(vn))) fail(`bad face corner '${a}' (v, v/vt, v/vt/vn or v//vn)`);
    const vertex = objIndex(v!, 'vertex', defined, a, fail);
    const uv = vt === undefined || vt === '' ? undefined : objIndex(vt, 'texture coordinate', st.uvs.length / 2, a, fail);
    return { vertex, uv };
  });
  const withUv = corners.filter((c) => c.uv !== undefined).length;
  if (withUv !== 0 && withUv !== corners.length) fail('a face must give texture coordinates at every corner or at none');
  const uvWords = (c: (typeof corners)[number]): number[] => (c.uv === undefined ? [0, 0] : [st.uvs[2 * c.uv]!, st.uvs[2 * c.uv + 1]!]);
  if (withUv !== 0) st.textured = true;
  for (let k = 1; k + 1 < corners.length; k++) {
    const tri = [corners[0]!, corners[k]!, corners[k + 1]!];
    st.triangles.push(...tri.map((c) => c.vertex), st.shader);
    st.texcoords.push(...tri.flatMap(uvWords));
  }
}

/** The largest shader id the triangle memory's shader word holds (bits [15:0]). */
export const MAX_IMAGE_SHADER_ID = 0xffff;

/**
 * A triangle's shader word in the triangle memory (docs/rays.md): bits [15:0] the shader id, [23:16] the geometry
 * mask inverted (0: every ray, so images written before masks mean mask 0xFF), bit 24 one-sided, [31:25] zero.
 */
export const shaderWord = (shader: number, mask: number, oneSided: boolean): number => (shader | ((~mask & 0xff) << 16) | (oneSided ? 1 << 24 : 0)) >>> 0;

/** The fields of a shader word; `reserved` is bits [31:25] (zero in a well-formed image). */
export const splitShaderWord = (w: number): { shader: number; mask: number; oneSided: boolean; reserved: number } => ({
  shader: w & 0xffff,
  mask: ~(w >>> 16) & 0xff,
  oneSided: ((w >>> 24) & 1) === 1,
  reserved: w >>> 25,
});

/**
 * The triangle-memory image of the original team: per triangle the words v0, v1, v2 and the shader word
 * (shaderWord: the shader id with the triangle's mask and side); four zero words; per vertex x, y, z and one
 * unused (zero) word; four zero words. Shader ids must be 1 to 0xFFFF (an all-zero triangle entry ends the list).
 */
export function sceneToImage(scene: Scene): Uint32Array {
  const nt = triangleCount(scene);
  const nv = vertexCount(scene);
  const out = new Uint32Array(4 * nt + 4 + 4 * nv + 4);
  for (let t = 0; t < nt; t++) {
    const shader = scene.triangles[4 * t + 3]!;
    if (shader === 0) throw new SceneError('<scene>', undefined, `triangle ${t} has shader id 0 (ids start at 1)`);
    if (shader > MAX_IMAGE_SHADER_ID) throw new SceneError('<scene>', undefined, `triangle ${t} has shader id ${shader}; the triangle memory's shader word holds ids up to ${MAX_IMAGE_SHADER_ID} (bits [15:0])`);
    out.set(scene.triangles.subarray(4 * t, 4 * t + 3), 4 * t);
    out[4 * t + 3] = shaderWord(shader, triangleMask(scene, t), triangleOneSided(scene, t));
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
  const masks = new Uint8Array(nt);
  const oneSided = new Uint8Array(nt);
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) if (triangles[4 * t + k]! >= nv) fail(`triangle ${t} names vertex ${triangles[4 * t + k]} of ${nv}`);
    const w = splitShaderWord(triangles[4 * t + 3]!);
    if (w.reserved !== 0) fail(`triangle ${t}'s shader word 0x${triangles[4 * t + 3]!.toString(16)} has bits [31:25] set (they must be zero)`);
    if (w.shader === 0) fail(`triangle ${t}'s shader word 0x${triangles[4 * t + 3]!.toString(16)} has shader id 0 in bits [15:0] (ids start at 1)`);
    triangles[4 * t + 3] = w.shader;
    masks[t] = w.mask;
    oneSided[t] = w.oneSided ? 1 : 0;
  }
  const vertices = new Uint32Array(3 * nv);
  for (let v = 0; v < nv; v++) vertices.set(words.subarray(vbase + 4 * v, vbase + 4 * v + 3), 3 * v);
  // Masks and sides only when some triangle has them: an image written before them reads back as it always did.
  return {
    vertices,
    triangles,
    ...(masks.some((m) => m !== DEFAULT_GEOMETRY_MASK) && { masks }),
    ...(oneSided.some((x) => x !== 0) && { oneSided }),
  };
}
