// The texture unit's bench figures: txd fetches per cycle and the texel cache's hit rate on the textured floor's request stream.
import { encodeTxdHandle } from '../../isa/index.ts';
import { floorStream } from './textureFloorStream.ts';
import { expectedTxd, textureUnitTestSystem } from '../catalogue/textureUnitCosim.ts';
import { runTxdStream } from './txdStream.ts';

export interface TextureBench {
  /** Requests the texel stage issued per cycle, first issue to last (docs/texture.md "Texture unit"). */
  readonly txdFetchesPerCycle: number;
  /** Texel words whose cache line was present or on its way at lookup. */
  readonly texelHitRate: number;
  /** Every answer equal to sampleTxd's. */
  readonly textureMatchesGolden: boolean;
}

/** The 64×48 floor in 8×8 tiles, the 64×64 RGBA8 texture repeated twice per unit, trilinear. */
export function measureTextureUnit(): TextureBench {
  const { image, design } = textureUnitTestSystem();
  const texture = image.headers.find((h) => h.header?.width === 64);
  if (!texture) throw new Error('internal: the texture test image has no 64-texel-wide texture');
  const items = floorStream({ width: 64, height: 48, handle: encodeTxdHandle(texture.index, 0), repeatsPerUnit: 2, tile: 8 });
  const run = runTxdStream(design, items);
  const matches = items.every((x, k) => JSON.stringify(expectedTxd(image.memory, x)) === JSON.stringify(run.answers[k]));
  return { txdFetchesPerCycle: run.counters.issued / run.issueSpan, texelHitRate: run.counters.texel_hits / run.counters.texel_lookups, textureMatchesGolden: matches };
}
