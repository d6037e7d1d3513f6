// The error thrown for bad host input to the texture formats (a header or image that cannot be encoded).

/** A texture header, sampler or image given by the host that cannot be encoded; the message says why. */
export class TextureError extends Error {
  override readonly name = 'TextureError';
}
