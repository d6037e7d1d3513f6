// Input-file loaders shared by `rtgpu run` and `rtgpu render`: programs, constants and triangles, chosen by file extension.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from './cliError.ts';
import { AsmError, assemble } from '../isa/assembler.ts';
import { HexWordsError, parseHexWords, wordsFromBytes } from '../isa/hexWords.ts';
import { imageToScene, parseObj, sceneToImage, SceneError, type Scene } from '../golden/scene.ts';
import { defaultScene } from '../golden/defaultScene.ts';

/** The bytes of FILE, or a CliError (status 1) saying why it cannot be read. */
export function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`, 1);
  }
}

export const readText = (file: string): string => readBytes(file).toString('utf8');

/** Run an input parser; its `file:line…` errors become clean exits with status 1 (as in `rtgpu asm`). */
export function parseInput<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof AsmError || e instanceof SceneError || e instanceof HexWordsError) throw new CliError(e.message, 1);
    throw e;
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
}

/** A kernel: `.hex` words, `.bin` little-endian words, anything else assembly (docs/isa.md). */
export function loadProgram(file: string): Program {
  if (isHex(file) || isBin(file)) return { words: loadWords(file) };
  const text = readText(file);
  const { words, sourceLines } = parseInput(() => assemble(text, file));
  return { words, sourceLines };
}

/** Constant memory words: `.bin` little-endian words, anything else hex text. */
export const loadConstants = (file: string): Uint32Array => loadWords(file);

export interface Triangles {
  readonly scene: Scene;
  /** The triangle-memory image of the scene (`sceneToImage`). */
  readonly image: Uint32Array;
}

/**
 * Triangles for trace: a triangle-memory image (`.hex` or `.bin`, docs/triangle-memory-and-ic-buffer.md),
 * anything else a Wavefront OBJ file; no file: the built-in Cornell box.
 */
export function loadTriangles(file: string | undefined): Triangles {
  const scene = file === undefined ? defaultScene() : isHex(file) || isBin(file) ? imageScene(file) : parseInput(() => parseObj(readText(file), file));
  return { scene, image: parseInput(() => sceneToImage(scene)) };
}

function imageScene(file: string): Scene {
  const words = loadWords(file);
  return parseInput(() => imageToScene(words, file));
}

/** Whether a file name says it is a triangle-memory image rather than an OBJ file. */
export const isTriangleImage = (file: string): boolean => isHex(file) || isBin(file);

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
