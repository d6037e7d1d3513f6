// The catalogue of named designs that `cosim`, `bench` and `rtl` know: library blocks, float units, GPU blocks.
import type { CosimDesign } from '../../hdl/cosim/index.ts';

/** Loaded lazily so that commands which need one design do not elaborate them all. */
export async function allDesigns(): Promise<CosimDesign[]> {
  const groups = await Promise.all([
    import('./libraryCosim.ts').then((m) => m.libraryDesigns as CosimDesign[]),
    import('./floatCosim.ts').then((m) => m.floatDesigns),
    import('../../gpu/rtCore/verification/rtCoreCosim.ts').then((m) => [m.rtCoreCosimDesign]),
    import('../../gpu/icCore/verification/icCoreCosim.ts').then((m) => [m.icCoreCosimDesign, m.icCoreWatertightCosimDesign]),
    import('../../gpu/bvh/verification/rayBox4Cosim.ts').then((m) => [m.rayBox4CosimDesign]),
    import('../../gpu/bvh8/verification/rayBox8Cosim.ts').then((m) => [m.rayBox8CosimDesign]),
    import('../../gpu/bvh8/verification/trianglePairCosim.ts').then((m) => [m.trianglePairCosimDesign]),
    import('../../gpu/bvh8/verification/obbRayRotateCosim.ts').then((m) => [m.obbRayRotateCosimDesign]),
    import('../../gpu/bvh8/verification/rayTransformCosim.ts').then((m) => [m.rayTransformCosimDesign]),
    import('../../gpu/texture/verification/textureLodCosim.ts').then((m) => [m.textureLodCosimDesign]),
    import('../../gpu/texture/verification/texelCoordinatesCosim.ts').then((m) => [m.texelCoordinatesCosimDesign]),
    import('../../gpu/texture/verification/bilinearBlendCosim.ts').then((m) => [m.bilinearBlendCosimDesign]),
    import('../../gpu/texture/verification/levelBlendCosim.ts').then((m) => [m.levelBlendCosimDesign]),
    import('../../gpu/texture/verification/textureArbiterCosim.ts').then((m) => [m.textureArbiterCosimDesign]),
    import('./textureUnitCosim.ts').then((m) => [m.textureUnitCosimDesign]),
    import('../../gpu/bvh/verification/bvhIcCosim.ts').then((m) => [m.bvhIcCosimDesign]),
    import('../../gpu/bvh8/verification/bvh8IcCosim.ts').then((m) => [m.bvh8IcCosimDesign]),
    import('../../gpu/bvh8/verification/gfx12DecodersCosim.ts').then((m) => [m.gfx12BoxCosimDesign, m.gfx12PrimitiveCosimDesign]),
    import('../../gpu/memory/verification/triangleMemoryCosim.ts').then((m) => [m.triangleMemoryCosimDesign]),
    import('../../gpu/icBuffer/verification/icBufferCosim.ts').then((m) => [m.icBufferCosimDesign]),
    import('../../gpu/memory/verification/unifiedMainMemoryCosim.ts').then((m) => [m.unifiedMainMemoryCosimDesign]),
    import('../../gpu/commandPatcher/verification/commandPatcherCosim.ts').then((m) => [m.commandPatcherCosimDesign]),
    import('../../gpu/memoryController/verification/memoryControllerCosim.ts').then((m) => [m.memoryControllerCosimDesign]),
    import('./benchDesign.ts').then((m) => [m.benchDesign]),
  ]);
  return groups.flat();
}

export async function findDesign(name: string): Promise<CosimDesign> {
  const all = await allDesigns();
  const d = all.find((x) => x.name === name);
  if (!d) throw new Error(`unknown design '${name}'; 'rtgpu cosim --list' lists them: ${all.map((x) => x.name).join(', ')}`);
  return d;
}
