// Mip chains on the host: level sizes, the box-filtered chain down to 1×1, and its layout in texture memory.
import { MAX_TEXTURE_SIZE, type TextureFormatName } from './textureHeader.ts';
import { TextureError } from './textureError.ts';
import { toNumber, fromNumber } from '../float32.ts';

/** One level: `texels` row-major, one word each (RGBA8: R in bits 7:0 … A in 31:24; R32F: binary32 bits). */
export interface TextureImage {
  readonly width: number;
  readonly height: number;
  readonly format: TextureFormatName;
  readonly texels: Uint32Array;
}

/** Size of level `level`: each axis halved with floor, never below 1. */
export function mipLevelSize(width: number, height: number, level: number): { width: number; height: number } {
  return { width: Math.max(1, Math.floor(width / 2 ** level)), height: Math.max(1, Math.floor(height / 2 ** level)) };
}

/** Word offset of level `level` from the texture's base: the levels are stored one after another, no padding. */
export function mipLevelOffset(width: number, height: number, level: number): number {
  let offset = 0;
  for (let l = 0; l < level; l++) {
    const s = mipLevelSize(width, height, l);
    offset += s.width * s.height;
  }
  return offset;
}

/** Words taken by `mipCount` levels. */
export const mipChainWords = (width: number, height: number, mipCount: number): number => mipLevelOffset(width, height, mipCount);

function checkImage(image: TextureImage): void {
  const { width, height } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_TEXTURE_SIZE || height > MAX_TEXTURE_SIZE) {
    throw new TextureError(`texture image ${width}×${height}: width and height must be integers 1 … ${MAX_TEXTURE_SIZE}`);
  }
  if (image.format !== 'rgba8' && image.format !== 'r32f') throw new TextureError(`texture image format must be rgba8 or r32f, got ${String(image.format)}`);
  if (image.texels.length !== width * height) throw new TextureError(`texture image ${width}×${height} needs ${width * height} texels, got ${image.texels.length}`);
}

/**
 * The source indices one destination index averages along an axis: 2i and 2i + 1; when the source
 * size is odd the last destination index also takes 2i + 2 (so no source row or column is dropped);
 * a source size of 1 stays 1.
 */
function footprint(i: number, sourceSize: number, destSize: number): number[] {
  if (sourceSize === 1) return [0];
  const at = [2 * i, 2 * i + 1];
  if (sourceSize % 2 === 1 && i === destSize - 1) at.push(2 * i + 2);
  return at;
}

/** The next level down: each texel the mean of its 2×2 (at an odd edge 2×3, 3×2 or 3×3) source texels. */
function downsample(src: TextureImage): TextureImage {
  const { width, height } = mipLevelSize(src.width, src.height, 1);
  const texels = new Uint32Array(width * height);
  for (let y = 0; y < height; y++) {
    const rows = footprint(y, src.height, height);
    for (let x = 0; x < width; x++) {
      const cols = footprint(x, src.width, width);
      const n = rows.length * cols.length;
      if (src.format === 'rgba8') {
        // Per channel the integer mean rounded half up: floor((2·sum + n) / 2n).
        let word = 0;
        for (let c = 0; c < 4; c++) {
          let sum = 0;
          for (const r of rows) for (const k of cols) sum += (src.texels[r * src.width + k]! >>> (8 * c)) & 0xff;
          word |= Math.floor((2 * sum + n) / (2 * n)) << (8 * c);
        }
        texels[y * width + x] = word >>> 0;
      } else {
        // Summed in double (exact for up to 9 binary32 values of like magnitude), divided, rounded once to binary32.
        let sum = 0;
        for (const r of rows) for (const k of cols) sum += toNumber(src.texels[r * src.width + k]!);
        texels[y * width + x] = fromNumber(sum / n);
      }
    }
  }
  return { width, height, format: src.format, texels };
}

/** Level 0 (the image itself) and every level below it down to 1×1, box filtered (mipLevelsFor(width, height) levels). */
export function buildMipChain(image: TextureImage): TextureImage[] {
  checkImage(image);
  const levels = [image];
  while (levels.at(-1)!.width > 1 || levels.at(-1)!.height > 1) levels.push(downsample(levels.at(-1)!));
  return levels;
}

/** The words of a chain as stored in texture memory from the header's base (levels in order, each row-major). */
export function layoutMipChain(levels: readonly TextureImage[]): Uint32Array {
  if (levels.length === 0) throw new TextureError('a mip chain needs at least one level');
  const { width, height } = levels[0]!;
  const words = new Uint32Array(mipChainWords(width, height, levels.length));
  levels.forEach((level, l) => {
    const want = mipLevelSize(width, height, l);
    if (level.width !== want.width || level.height !== want.height || level.format !== levels[0]!.format) {
      throw new TextureError(`mip level ${l} is ${level.width}×${level.height} ${level.format}, expected ${want.width}×${want.height} ${levels[0]!.format}`);
    }
    checkImage(level);
    words.set(level.texels, mipLevelOffset(width, height, l));
  });
  return words;
}
