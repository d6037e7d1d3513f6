// The texture unit's counters as `rtgpu run` and `rtgpu render` print them (a GPU with a texture unit only).
import type { TextureStats } from '../../host/runtime/index.ts';

/** The texel cache's hit rate as a percentage with one decimal ('-' when nothing was looked up). */
export const texelHitRate = (t: TextureStats): string => (t.texelLookups > 0 ? `${((100 * t.texelHits) / t.texelLookups).toFixed(1)}%` : '-');

/** `name: value` lines: requests, the texel cache (lookups, hits, misses, hit rate, fills), the descriptor cache, stalls. */
export function textureStatsLines(t: TextureStats): string[] {
  return [
    `txd requests: ${t.requests}`,
    `texel cache: ${t.texelLookups} lookups, ${t.texelHits} hits, ${t.texelLookups - t.texelHits} misses (hit rate ${texelHitRate(t)}), ${t.texelFills} line fills`,
    `descriptor cache: ${t.descriptorFills} line fills`,
    `texture stall cycles: ${t.stallCycles} texel stage, ${t.descriptorStallCycles} descriptor stage`,
  ];
}
