// Texture formats and the golden TXD sampler: headers, samplers, mip chains, LOD and filtering in binary32.
export { TextureError } from './textureError.ts';
export {
  TextureFormat,
  WrapMode,
  MAX_TEXTURE_SIZE,
  TEXTURE_HEADER_WORDS,
  mipLevelsFor,
  encodeTextureHeader,
  decodeTextureHeader,
  type TextureHeader,
  type TextureFormatName,
  type WrapModeName,
  type HeaderDecode,
} from './textureHeader.ts';
export {
  FilterMode,
  TEXTURE_SAMPLER_WORDS,
  LOD_FRACTION_BITS,
  encodeTextureSampler,
  decodeTextureSampler,
  type TextureSampler,
  type DecodedSampler,
  type FilterModeName,
  type SamplerDecode,
} from './textureSampler.ts';
export { buildMipChain, layoutMipChain, mipLevelSize, mipLevelOffset, mipChainWords, type TextureImage } from './mipChain.ts';
export { wrapTexelIndex } from './wrap.ts';
export { UNORM8_TO_FLOAT, texelChannels } from './texel.ts';
export { log2Approx, lodToFloat, computeLod, LOG2_CORRECTION, type LodInputs, type LodSteps } from './lod.ts';
export { lerp32, axisSample, sampleLevel, type AxisSample, type LevelView, type Rgba } from './levelFilter.ts';
export { sampleTxd, TxdStatus, type TxdOptions, type TxdResult } from './sampleTxd.ts';
