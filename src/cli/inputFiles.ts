// Input-file loaders shared by `rtgpu run` and `rtgpu render`: programs, constants and triangles, chosen by file extension.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from './cliError.ts';
import { AsmError, assemble } from '../isa/assembler.ts';
import { checkFitsInstructionMemory } from '../isa/instructionMemory.ts';
import { HexWordsError, parseHexWords, wordsFromBytes } from '../isa/hexWords.ts';
import { imageToScene, objText, parseObj, sceneToImage, SceneError, type Scene } from '../golden/scene.ts';
import { defaultScene } from '../scenes/defaultScene.ts';
import type { Traversal } from '../iss/sceneTracer.ts';
import { Bvh4FormatError, BvhBuildError, bvh8InstancedSceneImage, bvh8SceneImage, bvhSceneImage, parseBvhSceneImage, type Bvh4 } from '../bvh/index.ts';
import { flattenInstances } from '../scenes/instancedScene.ts';
import { loadInstancedSceneFile } from '../scenes/instancedSceneFile.ts';

/** The bytes of FILE, or a CliError (status 1) saying why it cannot be read. */
export function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`, 1);
  }
}

export const readText = (file: string): string => readBytes(file).toString('utf8');

/** An input error (`file:line…` of a parser, a BVH that cannot be built) as a clean exit with status 1; anything else rethrown. */
export function inputError(e: unknown, hint?: string): never {
  if (e instanceof AsmError || e instanceof SceneError || e instanceof HexWordsError || e instanceof Bvh4FormatError || e instanceof BvhBuildError) throw new CliError(hint === undefined ? e.message : `${e.message} (${hint})`, 1);
  throw e;
}

/** Run an input parser; its `file:line…` errors become clean exits with status 1 (as in `rtgpu asm`). */
export function parseInput<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    return inputError(e);
  }
}

const isHex = (file: string): boolean => /\.hex$/i.test(file);
const isBin = (file: string): boolean => /\.bin$/i.test(file);

/** 32-bit words of a `.bin` file (raw little-endian) or of any other file (hex text, one or more words per line). */
export function loadWords(file: string): Uint32Array {
  if (isBin(file)) {
    const bytes = readBytes(file);
    return parseInput(() => wordsFromBytes(bytes, file));
  }
  const text = readText(file);
  return parseInput(() => parseHexWords(text, file));
}

export interface Program {
  readonly words: Uint32Array;
  /** 1-based source line of each word, for assembly sources. */
  readonly sourceLines?: Int32Array;
  /** Assembly with `.include`: every file and, per word, which one it came from. */
  readonly files?: readonly string[];
  readonly sourceFiles?: Uint16Array;
}

/** A kernel: `.hex` words, `.bin` little-endian words, anything else assembly (docs/isa.md). */
export function loadProgram(file: string): Program {
  if (isHex(file) || isBin(file)) return { words: loadWords(file) };
  const text = readText(file);
  const { words, sourceLines, files, sourceFiles } = parseInput(() => checkFitsInstructionMemory(assemble(text, file)));
  return { words, sourceLines, files, sourceFiles };
}

/** Constant memory words: `.bin` little-endian words, anything else hex text. */
export const loadConstants = (file: string): Uint32Array => loadWords(file);

export interface Triangles {
  /** The scene; for BVH traversal in the BVH's order (the triangle indices of results refer to it). */
  readonly scene: Scene;
  /** The image the IC cores load: the triangle-memory image (`sceneToImage`), or the BVH scene image. */
  readonly image: Uint32Array;
  /** BVH traversal: the BVH the image holds. */
  readonly bvh?: Bvh4;
}

/**
 * Triangles for trace: a triangle-memory image (`.hex` or `.bin`, docs/triangle-memory-and-ic-buffer.md)
 * or a Wavefront OBJ file (`.obj`; any other name is an error); no file: the built-in Cornell box. For 'bvh' traversal a `.hex`/`.bin`
 * file is a BVH scene image (docs/host.md), and the BVH of an OBJ file or the Cornell box is built here. `obb`: the
 * BVH8 of 'bvh8' traversal is built with oriented boxes (the caller refuses it with any other traversal).
 */
export function loadTriangles(file: string | undefined, traversal: Traversal = 'brute-force', obb = false): Triangles {
  if (file !== undefined) checkSceneFileKind(file);
  if (file !== undefined && isInstancedSceneFile(file)) return loadInstancedTriangles(file, traversal, obb);
  if (traversal === 'bvh') return loadBvhTriangles(file);
  const scene = file === undefined ? defaultScene() : isTriangleImage(file) ? imageScene(file) : loadObj(file);
  // 'bvh8': the scene's BVH8 scene image (docs/host.md), built here, with oriented boxes if `obb`.
  return { scene, image: parseInput(() => (traversal === 'bvh8' ? bvh8SceneImage(scene, { obb }).image : sceneToImage(scene))) };
}

/**
 * An instanced scene file (`.scene`): for 'bvh8' its two-level BVH8 scene image (instance nodes over one BLAS per mesh,
 * with oriented boxes if `obb`);
 * otherwise its instances flattened into one triangle list, as an OBJ file's. `scene` is the flattened one.
 */
function loadInstancedTriangles(file: string, traversal: Traversal, obb: boolean): Triangles {
  const instanced = parseInput(() => loadInstancedSceneFile(file)).scene;
  const flat = parseInput(() => flattenInstances(instanced));
  if (traversal === 'bvh8') return { scene: flat, image: parseInput(() => bvh8InstancedSceneImage(instanced, { obb }).image) };
  if (traversal === 'bvh') {
    const { ordered, image, bvh } = parseInput(() => bvhSceneImage(flat));
    return { scene: ordered, image, bvh };
  }
  return { scene: flat, image: parseInput(() => sceneToImage(flat)) };
}

function loadBvhTriangles(file: string | undefined): Triangles {
  if (file !== undefined && isTriangleImage(file)) {
    const words = loadWords(file);
    try {
      const { ordered, bvh } = parseBvhSceneImage(words, file);
      return { scene: ordered, image: words, bvh };
    } catch (e) {
      return inputError(e, readsAs(() => imageToScene(words, file)) ? 'it reads as a triangle-memory image: drop --bvh, or give the OBJ file to build its BVH' : undefined);
    }
  }
  const scene = file === undefined ? defaultScene() : loadObj(file);
  const { ordered, image, bvh } = parseInput(() => bvhSceneImage(scene));
  return { scene: ordered, image, bvh };
}

/** Whether `parse` succeeds (for hints: which kind of image a file is when it is not the expected one). */
function readsAs(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

function imageScene(file: string): Scene {
  const words = loadWords(file);
  try {
    return imageToScene(words, file);
  } catch (e) {
    return inputError(e, readsAs(() => parseBvhSceneImage(words, file)) ? 'it is a BVH scene image: add --bvh' : undefined);
  }
}

/** Whether a file name says it is a triangle-memory image rather than an OBJ file. */
export const isTriangleImage = (file: string): boolean => isHex(file) || isBin(file);

/** Whether a file name says it is an instanced scene file (`instance` lines, docs/bvh.md "Instances"). */
export const isInstancedSceneFile = (file: string): boolean => /\.scene$/i.test(file);

/** Whether a file name says it is a Wavefront OBJ file. */
export const isObjFile = (file: string): boolean => /\.obj$/i.test(file);

/**
 * A scene file must say by its name what it is: `.obj`, or a triangle-memory image `.hex`/`.bin`
 * (a PNG, a PLY or an assembly file would otherwise be read as an OBJ file without faces).
 */
export function checkSceneFileKind(file: string): void {
  if (!isObjFile(file) && !isTriangleImage(file) && !isInstancedSceneFile(file))
    throw new CliError(`${file}: not a scene file: give a Wavefront OBJ file (.obj), an instanced scene file (.scene) or a triangle-memory image (.hex words or .bin little-endian words)`, 1);
}

/** An OBJ file's triangles (its text checked to be text first). */
const loadObj = (file: string): Scene => parseInput(() => parseObj(objText(readBytes(file), file), file));

/** Whether two paths name the same file (same path, or same device and inode behind links). */
export function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const sa = statSync(realpathSync(a)),
      sb = statSync(realpathSync(b));
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}
