// PNG files as RGBA8 texture images (pngjs): every PNG colour type to one word per texel, bottom row first.
import { PNG } from 'pngjs';
import { MAX_TEXTURE_SIZE, type TextureImage } from '../golden/texture/index.ts';

/** The eight bytes every PNG file starts with. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** A PNG that cannot become a texture; the message says why (no file name: the caller adds where). */
export class PngTextureError extends Error {
  override readonly name = 'PngTextureError';
}

/**
 * The texture image of a PNG file's bytes, format RGBA8 (R in bits 7:0 … A in 31:24). pngjs expands grey,
 * grey + alpha, RGB, palette (with tRNS transparency) and 1 … 16-bit depths to 8-bit RGBA (16-bit samples
 * rounded to the nearest 8-bit value); an image without alpha is opaque (A = 255).
 * Texel row 0 is the image's **bottom** row: OBJ's texture coordinate v = 0 is the bottom of the image (the
 * OpenGL convention), so the scene's (u, v) sample the texture as (s, t) unchanged.
 */
export function decodePngTexture(bytes: Uint8Array): TextureImage {
  let png: { width: number; height: number; data: Uint8Array };
  // pngjs's own message for a non-PNG file is obscure ("read requests waiting on finished stream").
  if (bytes.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) throw new PngTextureError('not a PNG image (no PNG signature)');
  try {
    png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    // pngjs says a file cut short this way ("There are some read requests waitng on finished stream").
    throw new PngTextureError(`not a decodable PNG image (${/read requests wait/i.test(why) ? 'the file ends before the image does: truncated?' : why})`);
  }
  const { width, height, data } = png;
  if (width > MAX_TEXTURE_SIZE || height > MAX_TEXTURE_SIZE) throw new PngTextureError(`the image is ${width}×${height}; a texture is at most ${MAX_TEXTURE_SIZE}×${MAX_TEXTURE_SIZE}`);
  if (width < 1 || height < 1) throw new PngTextureError(`the image is ${width}×${height}, empty`);
  const texels = new Uint32Array(width * height);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let y = 0; y < height; y++) {
    const row = height - 1 - y; // bottom row first
    for (let x = 0; x < width; x++) texels[y * width + x] = view.getUint32(4 * (row * width + x), true);
  }
  return { width, height, format: 'rgba8', texels };
}
